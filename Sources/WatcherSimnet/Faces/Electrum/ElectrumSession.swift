import Foundation
import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// One client connection's protocol state: the negotiated version, the header subscription and each subscribed
/// scripthash with the status last sent. Pure: it answers requests from a chain snapshot and works out the
/// notifications a chain change owes the client; the server does the I/O.
struct ElectrumSession: Sendable {
    /// A subscribed scripthash.
    struct Subscription: Sendable, Hashable {
        /// The address behind it, `nil` while the chain has never seen it.
        var address: String?
        /// The status last sent.
        var status: String?
    }

    /// What a request line gives back.
    struct Reply: Sendable {
        /// The line to send, `nil` for a client notification (no `id`).
        var json: JSONValue?
        /// Close the connection after sending (an unacceptable `server.version`).
        var close = false
    }

    /// The version agreed by `server.version` (`nil`: none sent yet; the lowest served applies).
    private(set) var negotiated: String?
    private(set) var subscriptions: [String: Subscription] = [:]
    private(set) var headersSubscribed = false
    private var lastTip: String?

    /// The protocol version in force.
    func version(_ settings: ElectrumSettings) -> String {
        negotiated ?? settings.personality.protocols[0]
    }

    /// The reply to one parsed line: a request object, or a batch (an array of them).
    mutating func reply(to line: JSONValue, world: ElectrumWorld, settings: ElectrumSettings) -> Reply {
        switch line {
        case .object:
            return reply(toRequest: line, world: world, settings: settings)
        case .array(let items) where !items.isEmpty:
            var replies: [JSONValue] = []
            var close = false
            for item in items {
                let one = reply(toRequest: item, world: world, settings: settings)
                if let json = one.json { replies.append(json) }
                close = close || one.close
            }
            return Reply(json: replies.isEmpty ? nil : .array(replies), close: close)
        default:
            return Reply(json: Self.envelope(id: .null, .failure(.invalidRequest)))
        }
    }

    private mutating func reply(toRequest request: JSONValue, world: ElectrumWorld, settings: ElectrumSettings)
        -> Reply
    {
        guard case .object = request, let method = request["method"]?.stringValue else {
            return Reply(json: Self.envelope(id: request["id"] ?? .null, .failure(.invalidRequest)))
        }
        let params: [JSONValue]
        switch request["params"] {
        case nil, .null?: params = []
        case .array(let items)?: params = items
        default: return Reply(json: Self.envelope(id: request["id"] ?? .null, .failure(.invalidParams)))
        }
        var close = false
        let outcome = call(method, params, world: world, settings: settings, close: &close)
        guard let id = request["id"], id != .null else { return Reply(json: nil, close: close) }
        return Reply(json: Self.envelope(id: id, outcome), close: close)
    }

    /// The notifications a chain change owes this client: the new tip (intermediate tips skipped, as servers do)
    /// and every subscribed scripthash whose status moved. `settings` counts dropped notifications down.
    mutating func notifications(world: ElectrumWorld, settings: inout ElectrumSettings) -> [JSONValue] {
        var out: [JSONValue] = []
        let tip = world.chain.tip
        if headersSubscribed, lastTip != tip.hash {
            lastTip = tip.hash
            out.append(Self.notification("blockchain.headers.subscribe", [Self.headerObject(tip)]))
        }
        for scripthash in subscriptions.keys.sorted() {
            guard var subscription = subscriptions[scripthash] else { continue }
            subscription.address = subscription.address ?? world.address(scripthash)
            let status =
                Self.overLimit(scripthash, world: world, settings: settings)
                ? nil : subscription.address.flatMap { world.index.status(of: $0) }
            guard status != subscription.status else { continue }
            subscription.status = status
            subscriptions[scripthash] = subscription
            if settings.dropNotifications > 0 {
                settings.dropNotifications -= 1
                continue
            }
            let note = Self.notification(
                "blockchain.scripthash.subscribe",
                [.string(scripthash), status.map(JSONValue.string) ?? .null]
            )
            out.append(note)
            if settings.duplicateNotifications { out.append(note) }
        }
        return out
    }

    mutating func subscribeHeaders(tip: SimBlock) -> JSONValue {
        headersSubscribed = true
        lastTip = tip.hash
        return Self.headerObject(tip)
    }

    mutating func subscribe(_ scripthash: String, world: ElectrumWorld, settings: ElectrumSettings)
        -> Result<JSONValue, ElectrumError>
    {
        if subscriptions[scripthash] == nil, settings.personality == .fulcrum,
            subscriptions.count >= settings.maxSubscriptions
        {
            return .failure(.subscriptionLimit)
        }
        let address = world.address(scripthash)
        var status = address.flatMap { world.index.status(of: $0) }
        switch Self.limited(scripthash, world: world, settings: settings) {
        case .failure(let error): return .failure(error)
        case .success(true): status = nil
        case .success(false): break
        }
        subscriptions[scripthash] = Subscription(address: address, status: status)
        return .success(status.map(JSONValue.string) ?? .null)
    }

    mutating func unsubscribe(_ scripthash: String) -> Bool {
        subscriptions.removeValue(forKey: scripthash) != nil
    }

    mutating func negotiate(_ params: [JSONValue], settings: ElectrumSettings) -> Result<JSONValue, ElectrumError> {
        let served = settings.personality.protocols
        var low = served[0]
        var high = served[0]
        switch params.count > 1 ? params[1] : nil {
        case nil: break
        case .string(let version)?: (low, high) = (version, version)
        case .array(let range)? where range.count == 2:
            guard let min = range[0].stringValue, let max = range[1].stringValue else {
                return .failure(.invalidParams)
            }
            (low, high) = (min, max)
        default: return .failure(.invalidParams)
        }
        guard
            let chosen = served.last(where: {
                Self.compare($0, low) != .orderedAscending && Self.compare($0, high) != .orderedDescending
            })
        else {
            return .failure(.failed("unsupported protocol version: \(low == high ? low : "[\(low), \(high)]")"))
        }
        negotiated = chosen
        return .success(.array([.string(settings.personality.software), .string(chosen)]))
    }

    /// Orders dotted version numbers numerically (`1.4.2` < `1.10`).
    static func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        let a = lhs.split(separator: ".").map { Int($0) ?? 0 }
        let b = rhs.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(a.count, b.count) {
            let (x, y) = (index < a.count ? a[index] : 0, index < b.count ? b[index] : 0)
            if x != y { return x < y ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }

    /// `{"hex": <80-byte header>, "height": h}`, the subscription's result and notification.
    static func headerObject(_ block: SimBlock) -> JSONValue {
        .object([.init("hex", .string(Hex.encode(block.header.serialized()))), .init("height", .integer(block.height))])
    }

    /// A reply envelope, members in electrs's (alphabetical) order.
    static func envelope(id: JSONValue, _ outcome: Result<JSONValue, ElectrumError>) -> JSONValue {
        switch outcome {
        case .success(let result):
            .object([.init("id", id), .init("jsonrpc", .string("2.0")), .init("result", result)])
        case .failure(let error):
            .object([.init("error", error.json), .init("id", id), .init("jsonrpc", .string("2.0"))])
        }
    }

    /// A server notification.
    static func notification(_ method: String, _ params: [JSONValue]) -> JSONValue {
        .object([.init("jsonrpc", .string("2.0")), .init("method", .string(method)), .init("params", .array(params))])
    }
}

/// What a session reads: one chain snapshot, its index, the next-block fee rate, and the scripthash book (resolved
/// ahead by the server).
struct ElectrumWorld: Sendable {
    let chain: ChainModel
    let index: ElectrumIndex
    /// The next-block fee rate in sat/vB `blockchain.estimatefee` answers (the world's).
    let feeRate: Decimal
    /// Resolves a scripthash to an address of the chain.
    let resolve: @Sendable (String) -> String?

    init(
        chain: ChainModel,
        feeRate: Decimal = SimnetWorld.defaultFeeRate,
        resolve: @escaping @Sendable (String) -> String?
    ) {
        self.chain = chain
        self.index = ElectrumIndex(chain: chain)
        self.feeRate = feeRate
        self.resolve = resolve
    }

    func address(_ scripthash: String) -> String? { resolve(scripthash) }
}

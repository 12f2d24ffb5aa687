import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import WatcherCore
import WatcherHTTP
import WatcherJSON

/// Blockbook's websocket (`/websocket`) as a ``ChainPushing``: `subscribeNewBlock` and `subscribeAddresses`, and the
/// `ping` method every 45 s so that proxies keep the socket.
///
/// Blockbook takes at most 1,000 addresses per connection, so `connections` sockets follow up to 1,000 each (the
/// sorted address set cut in slices); only the first also follows new blocks. Each stays well inside Blockbook's
/// per-connection limits (2,500 messages per 10 minutes, pings included; 48 requests in flight): one or two
/// subscriptions, a re-subscription when its slice changes (checked every 30 s), and 14 pings per 10 minutes. All of
/// them together stay under the per-IP limits (128 connections, 64 new ones a minute) because `connections` is at
/// most 64. Frames are JSON text; request ids are strings, as Blockbook requires.
public struct BlockbookPush: ChainPushing {
    /// Blockbook's cap on the addresses of one connection's `subscribeAddresses`.
    public static let addressesPerConnection = 1000
    /// The most connections one provider opens (half of Blockbook's 128 per IP, and its 64 new ones per minute).
    public static let maxConnections = 64

    /// The websocket URL, e.g. `wss://btc1.trezor.io/websocket`.
    public let url: String
    /// The sockets opened, each following up to ``addressesPerConnection`` addresses.
    public let connections: Int
    public var maxAddresses: Int { Self.addressesPerConnection * connections }
    let logger: Logger
    /// How often the `ping` method is sent.
    var pingInterval: Duration = .seconds(45)
    /// How often the address set is compared with the subscribed one (an in-memory comparison; a message goes out
    /// only when the set changed, so at most one a second, well inside Blockbook's 2,500 per 10 minutes). An
    /// address a reload adds is followed within a second, not at a 30 s recheck during which it was neither pushed
    /// nor polled.
    var recheckInterval: Duration = .seconds(1)

    static let blockID = "block"
    static let addressesID = "addresses"

    /// The push connections of the Blockbook instance at `baseURL` (`http` becomes `ws`, `https` `wss`).
    public init(baseURL: String, connections: Int = 1, logger: Logger) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasPrefix("https://") {
            base = "wss://" + base.dropFirst("https://".count)
        } else if base.hasPrefix("http://") {
            base = "ws://" + base.dropFirst("http://".count)
        }
        url = base + "/websocket"
        self.connections = min(max(1, connections), Self.maxConnections)
        self.logger = logger
    }

    /// Opens every connection; the first to end ends them all (the caller reconnects and re-subscribes everything).
    /// ``PushEvent/subscribed`` is reported once every connection's subscriptions are acknowledged, and again after
    /// each re-subscription from then on.
    public func follow(
        addresses: @escaping @Sendable () async -> [String],
        onEvent: @escaping @Sendable (PushEvent) async -> Void
    ) async throws {
        let shared = Shared(connections: connections, addresses: await addresses(), freshFor: recheckInterval / 2)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<connections {
                group.addTask {
                    let slice: @Sendable () async -> [String] = {
                        Self.slice(await shared.addresses(reading: addresses), index)
                    }
                    try await connection(index, addresses: slice) { event in
                        if case .subscribed = event {
                            guard shared.acknowledge(index) else { return }
                        }
                        await onEvent(event)
                    }
                }
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// The addresses connection `index` follows: the `index`-th run of ``addressesPerConnection`` of the set.
    static func slice(_ addresses: [String], _ index: Int) -> [String] {
        let start = min(index * addressesPerConnection, addresses.count)
        return Array(addresses[start..<min(start + addressesPerConnection, addresses.count)])
    }

    /// One socket: new blocks when `index` is 0, and `addresses()`.
    func connection(
        _ index: Int,
        addresses: @escaping @Sendable () async -> [String],
        onEvent: @escaping @Sendable (PushEvent) async -> Void
    ) async throws {
        var configuration = WebSocketClientConfiguration(maxFrameSize: 4 << 20)
        configuration.autoPing = .disabled
        let (pingInterval, recheckInterval) = (self.pingInterval, self.recheckInterval)
        let followsBlocks = index == 0
        let closed = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) {
            inbound,
            outbound,
            _ in
            let initial = await addresses()
            if followsBlocks {
                try await outbound.write(.text(Self.request(id: Self.blockID, method: "subscribeNewBlock")))
            }
            try await outbound.write(.text(Self.subscribeAddresses(initial)))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    var subscribed = initial
                    var sincePing = Duration.zero
                    while true {
                        try await Task.sleep(for: recheckInterval)
                        sincePing += recheckInterval
                        let current = await addresses()
                        if current != subscribed {
                            subscribed = current
                            try await outbound.write(.text(Self.subscribeAddresses(current)))
                        }
                        if sincePing >= pingInterval {
                            sincePing = .zero
                            try await outbound.write(.text(Self.request(id: "ping", method: "ping")))
                        }
                    }
                }
                var acknowledged: Set<String> = followsBlocks ? [] : [Self.blockID]
                for try await message in inbound.messages(maxSize: 4 << 20) {
                    guard case .text(let text) = message, let event = try Self.event(text, acknowledged: &acknowledged)
                    else { continue }
                    await onEvent(event)
                }
                group.cancelAll()
            }
        }
        throw ProviderError.unavailable(
            provider: "blockbook-websocket",
            status: nil,
            detail: "websocket \(index + 1) of \(connections) closed"
                + (closed.map { " (\($0.closeCode)\($0.reason.map { ": \($0)" } ?? ""))" } ?? "")
        )
    }

    /// One request frame.
    static func request(id: String, method: String, params: JSONValue = .object([])) -> String {
        JSONValue.object([.init("id", .string(id)), .init("method", .string(method)), .init("params", params)])
            .serialized()
    }

    static func subscribeAddresses(_ addresses: [String]) -> String {
        request(
            id: addressesID,
            method: "subscribeAddresses",
            params: .object([.init("addresses", .array(addresses.map(JSONValue.string)))])
        )
    }

    /// The event a frame carries, if any: subscription acks (both acknowledged: ``PushEvent/subscribed``), new
    /// blocks and address transactions.
    /// - Throws: ``ProviderError/unavailable`` when Blockbook refused a subscription.
    static func event(_ text: String, acknowledged: inout Set<String>) throws -> PushEvent? {
        guard let frame = try? JSONValue.parse(text), let id = frame["id"]?.stringValue, let data = frame["data"]
        else { return nil }
        if let message = data["error"]?["message"]?.stringValue {
            throw ProviderError.unavailable(provider: "blockbook-websocket", status: nil, detail: message)
        }
        if data["subscribed"] == .bool(true) {
            let both: Set<String> = [blockID, addressesID]
            let wasComplete = acknowledged.isSuperset(of: both)
            acknowledged.insert(id)
            // Once both are acknowledged, and again after each re-subscription of the addresses.
            guard acknowledged.isSuperset(of: both), !wasComplete || id == addressesID else { return nil }
            return .subscribed
        }
        switch id {
        case blockID:
            guard case .number(let height)? = data["height"], let value = Int(height),
                let hash = data["hash"]?.stringValue
            else { return nil }
            return .newBlock(height: value, hash: hash)
        case addressesID:
            guard let address = data["address"]?.stringValue, let tx = data["tx"], let txid = tx["txid"]?.stringValue
            else { return nil }
            let decoder = BlockbookDecoder(provider: "blockbook-websocket")
            let node = ProviderHTTP.JSONNode(tx, path: "data.tx", provider: "blockbook-websocket")
            let decoded = try? decoder.transaction(node)
            return .addressTx(
                address: address,
                txid: txid,
                deltaSat: decoded?.delta(for: address),
                confirmed: decoded?.blockHeight != nil,
                // The push carries the whole transaction, as `/api/v2/tx` gives it: the same facts as a poll.
                facts: decoded == nil ? nil : try? decoder.facts(of: node),
                deltas: decoded.map(Self.deltas)
            )
        default:
            return nil
        }
    }
}

extension BlockbookPush {
    /// A pushed transaction's net effect on each address it touches.
    static func deltas(_ transaction: ChainTransaction) -> [String: Int64] {
        let touched = (transaction.inputs + transaction.outputs).compactMap(\.address)
        return Dictionary(touched.map { ($0, transaction.delta(for: $0)) }, uniquingKeysWith: { first, _ in first })
    }
}

/// What the connections of one ``BlockbookPush/follow(addresses:onEvent:)`` share: which of them have not yet had
/// their subscriptions acknowledged, and the followed set, read once for all of them per recheck (they recheck at
/// about the same moments) rather than once per connection.
private final class Shared: Sendable {
    private let pending: Mutex<Set<Int>>
    private let snapshot: Mutex<(addresses: [String], readAt: ContinuousClock.Instant)>
    private let freshFor: Duration

    init(connections: Int, addresses: [String], freshFor: Duration) {
        pending = Mutex(Set(0..<connections))
        snapshot = Mutex((addresses, .now))
        self.freshFor = freshFor
    }

    /// Marks connection `index` acknowledged; `true` when every connection is.
    func acknowledge(_ index: Int) -> Bool {
        pending.withLock {
            $0.remove(index); return $0.isEmpty
        }
    }

    /// The followed set: the last one read when it is younger than `freshFor`, else `read()` anew.
    func addresses(reading read: @Sendable () async -> [String]) async -> [String] {
        let last = snapshot.withLock { $0 }
        guard last.readAt.duration(to: .now) >= freshFor else { return last.addresses }
        let fresh = await read()
        snapshot.withLock { $0 = (fresh, .now) }
        return fresh
    }
}

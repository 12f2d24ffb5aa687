import Foundation
import WatcherCore
import WatcherJSON

/// The JSON control API under `/control/`: thin wrappers over ``SimnetWorld``. Bad input answers
/// 400 `{"error":"…"}`; unknown endpoints 404; wrong methods 405.
struct ControlRouter: Sendable {
    let world: SimnetWorld

    private struct MineRequest: Decodable { var count: Int? }
    private struct TxRequest: Decodable {
        var to: String
        var amountSat: Int64
        var from: String?
        var change: String?
        var rbf: Bool?
    }
    private struct ReorgRequest: Decodable { var depth: Int }
    private struct HideRequest: Decodable {
        var address: String?
        var txid: String?
        var hidden: Bool?
    }
    private struct ReplaceRequest: Decodable {
        var txid: String
        var payTo: String?
    }
    private struct EvictRequest: Decodable { var txid: String }
    private struct NodeRequest: Decodable {
        var warmup: Bool?
        var warmupMessage: String?
        var workQueueFull: Bool?
        var forbidden: [String]?
        var initialBlockDownload: Bool?
        var rotateCookie: Bool?
        var chain: String?
        var insufficientFeeData: Bool?
    }
    private struct RateLimitRequest: Decodable {
        var family: String
        var requests: Int
        var per: String?
        var burst: Int?
    }
    private struct FaultsRequest: Decodable {
        var family: String
        var rate: Double
        var kinds: [String]?
        var status: [Int]?
        var timeout: String?
        var slow: String?
    }

    struct BadRequest: Error { let message: String }

    func reply(method: String, path: String, body: [UInt8]) -> SimReply {
        do {
            switch (method, path) {
            case ("POST", "/control/mine"): return try mine(body)
            case ("POST", "/control/tx"): return try pay(body)
            case ("POST", "/control/reorg"): return try reorg(body)
            case ("POST", "/control/replace"):
                let request = try decode(ReplaceRequest.self, body)
                let tx = try world.replace(request.txid, payTo: try request.payTo.map(address))
                return .json(.object([.init("txid", .string(tx.txid))]))
            case ("POST", "/control/evict"):
                let gone = try world.evict(decode(EvictRequest.self, body).txid)
                return .json(.object([.init("evicted", .array(gone.map { .string($0) }))]))
            case ("POST", "/control/price"): return try setPrices(body)
            case ("GET", "/control/price"): return prices(world.snapshot().prices)
            case ("POST", "/control/ratelimit"): return try rateLimit(body)
            case ("POST", "/control/faults"): return try faults(body)
            case ("POST", "/control/hide"): return try hide(body)
            case ("GET", "/control/stats"): return .json(world.stats().json)
            case ("POST", "/control/stats/reset"):
                world.resetStats()
                return .json(.object([]))
            case ("GET", "/control/addresses"): return addresses()
            case ("GET", "/control/tip"): return .json(Self.ref(world.snapshot().chain.tip))
            case ("GET", "/control/bitcoind"): return .json(Self.node(world.node.currentSettings))
            case ("POST", "/control/bitcoind"): return try node(body)
            case ("GET", "/control/zmq"): return zmq()
            case ("POST", "/control/zmq"): return try zmq(body)
            case ("GET", "/control/electrum"): return electrum()
            case ("POST", "/control/electrum"): return try electrum(body)
            case ("GET", "/control/fee"): return fee()
            case ("POST", "/control/fee"): return try fee(body)
            case (_, "/control/mine"), (_, "/control/tx"), (_, "/control/reorg"), (_, "/control/price"),
                (_, "/control/replace"), (_, "/control/evict"),
                (_, "/control/ratelimit"), (_, "/control/faults"), (_, "/control/hide"), (_, "/control/stats"),
                (_, "/control/stats/reset"),
                (_, "/control/addresses"), (_, "/control/tip"), (_, "/control/bitcoind"), (_, "/control/zmq"),
                (_, "/control/electrum"), (_, "/control/fee"):
                return Self.error("method \(method) not allowed", status: 405)
            default:
                return Self.error("unknown control endpoint \(path)", status: 404)
            }
        } catch let error as BadRequest {
            return Self.error(error.message)
        } catch let error as ChainModel.Failure {
            return Self.error(error.description)
        } catch {
            return Self.error("invalid JSON body: \(error)")
        }
    }

    static func error(_ message: String, status: Int = 400) -> SimReply {
        .json(.object([.init("error", .string(message))]), status: status)
    }

    static func ref(_ block: SimBlock) -> JSONValue {
        .object([.init("height", .integer(block.height)), .init("hash", .string(block.hash))])
    }

    func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(body.isEmpty ? Array("{}".utf8) : body))
    }

    private func mine(_ body: [UInt8]) throws -> SimReply {
        let blocks = try world.mine(count: decode(MineRequest.self, body).count ?? 1)
        return .json(.object([.init("blocks", .array(blocks.map(Self.ref)))]))
    }

    func address(_ text: String) throws -> SimAddress {
        do {
            return try SimAddressParser.decode(text, network: world.network)
        } catch {
            throw BadRequest(message: "invalid address \(text): \(error)")
        }
    }

    private func pay(_ body: [UInt8]) throws -> SimReply {
        let request = try decode(TxRequest.self, body)
        let parse = address
        let address = try parse(request.to)
        let from = try request.from.map(parse)
        let change = try request.change.map(parse)
        if change != nil, from == nil { throw BadRequest(message: "change needs from") }
        let tx = try world.pay(
            to: address,
            amountSat: request.amountSat,
            from: from,
            change: change,
            rbf: request.rbf ?? true
        )
        return .json(.object([.init("txid", .string(tx.txid))]))
    }

    /// `{"address": "..."}` or `{"txid": "..."}`, with `"hidden"` (default true): the Blockbook face answers the
    /// address as unused, or the transaction as not found.
    private func hide(_ body: [UInt8]) throws -> SimReply {
        let request = try decode(HideRequest.self, body)
        let what: String
        switch (request.address, request.txid) {
        case (let address?, nil): what = try self.address(address).string
        case (nil, let txid?) where txid.count == 64 && txid.allSatisfy(\.isHexDigit): what = txid.lowercased()
        case (nil, _?): throw BadRequest(message: "txid must be 64 hex digits")
        default: throw BadRequest(message: "give one of address or txid")
        }
        let hidden = world.hide(what, request.hidden ?? true)
        return .json(.object([.init("hidden", .array(hidden.sorted().map(JSONValue.string)))]))
    }

    private func reorg(_ body: [UInt8]) throws -> SimReply {
        let replaced = try world.reorg(depth: decode(ReorgRequest.self, body).depth)
        let rows: [JSONValue] = replaced.map {
            .object([
                .init("height", .integer($0.height)),
                .init("oldHash", .string($0.oldHash)),
                .init("newHash", .string($0.newHash)),
            ])
        }
        return .json(.object([.init("replaced", .array(rows))]))
    }

    private func setPrices(_ body: [UInt8]) throws -> SimReply {
        let raw = try decode([String: Decimal].self, body)
        var prices: [PriceCurrency: Decimal] = [:]
        for (code, value) in raw {
            guard let currency = PriceCurrency(code: code) else {
                throw BadRequest(message: "unknown currency \(code)")
            }
            guard value > 0 else { throw BadRequest(message: "price for \(code) must be positive") }
            prices[currency] = value
        }
        _ = world.setPrices(prices)
        return self.prices(world.snapshot().prices)
    }

    private func prices(_ model: PriceModel) -> SimReply {
        .json(.object(PriceCurrency.allCases.map { .init($0.rawValue, .number(model.price($0).description)) }))
    }

    private func family(_ text: String) throws -> ProviderFamily {
        guard let family = ProviderFamily(rawValue: text) else {
            throw BadRequest(
                message: "unknown family \(text) (blockbook, rawaddr, coindesk, coinbase, bitcoind, electrum)"
            )
        }
        return family
    }

    private func rateLimit(_ body: [UInt8]) throws -> SimReply {
        let request = try decode(RateLimitRequest.self, body)
        let family = try family(request.family)
        guard request.requests >= 0 else { throw BadRequest(message: "requests must be 0 (off) or more") }
        guard let per = Duration(configText: request.per ?? "1m"), per > .zero else {
            throw BadRequest(message: "per must be a duration such as 1m or 10s")
        }
        let limit = RateLimit(requests: request.requests, per: per, burst: request.burst ?? request.requests)
        world.setRateLimit(request.requests == 0 ? nil : limit, for: family)
        return .json(
            .object([
                .init("family", .string(family.rawValue)),
                .init("requests", .integer(limit.requests)),
                .init("per", .string(limit.per.configText)),
                .init("burst", .integer(limit.burst)),
            ])
        )
    }

    private func faults(_ body: [UInt8]) throws -> SimReply {
        let request = try decode(FaultsRequest.self, body)
        let family = try family(request.family)
        guard (0...1).contains(request.rate) else { throw BadRequest(message: "rate must be within 0...1") }
        var kinds: [FaultConfiguration.Kind] = []
        for text in request.kinds ?? [] {
            guard let kind = FaultConfiguration.Kind(rawValue: text) else {
                throw BadRequest(message: "unknown fault kind \(text)")
            }
            kinds.append(kind)
        }
        func duration(_ text: String?, default value: Duration) throws -> Duration {
            guard let text else { return value }
            guard let parsed = Duration(configText: text) else { throw BadRequest(message: "bad duration \(text)") }
            return parsed
        }
        let configuration = FaultConfiguration(
            rate: request.rate,
            kinds: kinds,
            statuses: request.status ?? [],
            timeout: try duration(request.timeout, default: .seconds(300)),
            slowDuration: try duration(request.slow, default: .seconds(5))
        )
        world.setFaults(configuration, for: family)
        return .json(
            .object([
                .init("family", .string(family.rawValue)),
                .init("rate", .number(String(configuration.rate))),
                .init("kinds", .array(configuration.kinds.map { .string($0.rawValue) })),
                .init(
                    "status",
                    .array((configuration.statuses.isEmpty ? [500] : configuration.statuses).map { .integer($0) })
                ),
                .init("timeout", .string(configuration.timeout.configText)),
                .init("slow", .string(configuration.slowDuration.configText)),
            ])
        )
    }

    /// Changes only the switches the body names.
    private func node(_ body: [UInt8]) throws -> SimReply {
        let request = try decode(NodeRequest.self, body)
        var settings = world.node.currentSettings
        if let warmup = request.warmup { settings.warmup = warmup }
        if let message = request.warmupMessage {
            guard !message.isEmpty else { throw BadRequest(message: "warmupMessage must not be empty") }
            settings.warmupMessage = message
        }
        if let full = request.workQueueFull { settings.workQueueFull = full }
        if let forbidden = request.forbidden { settings.forbiddenMethods = Set(forbidden) }
        if let ibd = request.initialBlockDownload { settings.initialBlockDownload = ibd }
        if let none = request.insufficientFeeData { settings.insufficientFeeData = none }
        if let chain = request.chain {
            guard NodeSettings.chains.contains(chain) else {
                throw BadRequest(message: "chain must be one of \(NodeSettings.chains.joined(separator: ", "))")
            }
            settings.chain = chain
        }
        world.node.set(settings)
        if request.rotateCookie == true {
            do {
                try world.node.rotateCookie()
            } catch {
                throw BadRequest(message: "cannot write the cookie file: \(error)")
            }
        }
        return .json(Self.node(settings))
    }

    private struct ZMQRequest: Decodable {
        var topic: String
        var skip: UInt32
    }

    /// `{"topic": "sequence", "skip": 2}`: the next two counters of the topic are never sent (simulated loss).
    private func zmq(_ body: [UInt8]) throws -> SimReply {
        let request = try decode(ZMQRequest.self, body)
        guard world.zmq.isOn else { throw BadRequest(message: "ZMQ is off (start the simnet with --zmq-port)") }
        guard ["hashblock", "sequence"].contains(request.topic) else {
            throw BadRequest(message: "topic must be hashblock or sequence")
        }
        world.zmq.skip(topic: request.topic, count: request.skip)
        return zmq()
    }

    private func zmq() -> SimReply {
        .json(.object([.init("endpoint", world.zmq.endpoint.map { .string($0) } ?? .null)]))
    }

    static func node(_ settings: NodeSettings) -> JSONValue {
        .object([
            .init("warmup", .bool(settings.warmup)),
            .init("warmupMessage", .string(settings.warmupMessage)),
            .init("workQueueFull", .bool(settings.workQueueFull)),
            .init("forbidden", .array(settings.forbiddenMethods.sorted().map { .string($0) })),
            .init("initialBlockDownload", .bool(settings.initialBlockDownload)),
            .init("chain", .string(settings.chain)),
            .init("insufficientFeeData", .bool(settings.insufficientFeeData)),
        ])
    }

    private func addresses() -> SimReply {
        let state = world.snapshot()
        let rows: [JSONValue] = state.chain.truths().map { truth in
            .object([
                .init("address", .string(truth.address)),
                .init("kind", .string(truth.kind.rawValue)),
                .init("funded", .bool(truth.funded)),
                .init("confirmedBalanceSat", .integer(truth.confirmedBalanceSat)),
                .init("unconfirmedBalanceSat", .integer(truth.unconfirmedBalanceSat)),
                .init("totalReceivedSat", .integer(truth.totalReceivedSat)),
                .init("totalSentSat", .integer(truth.totalSentSat)),
                .init("unconfirmedReceivedSat", .integer(truth.unconfirmedReceivedSat)),
                .init("unconfirmedSentSat", .integer(truth.unconfirmedSentSat)),
                .init("confirmedTxCount", .integer(truth.confirmedTxCount)),
                .init("unconfirmedTxCount", .integer(truth.unconfirmedTxCount)),
                .init("unspentOutputCount", .integer(truth.unspentOutputCount)),
            ])
        }
        return .json(.object([.init("tip", Self.ref(state.chain.tip)), .init("addresses", .array(rows))]))
    }
}

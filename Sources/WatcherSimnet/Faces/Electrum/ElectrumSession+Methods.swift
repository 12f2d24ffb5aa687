import Foundation
import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// The methods a session answers.
extension ElectrumSession {
    /// Bitcoin's mainnet genesis block: a mainnet simnet says it runs `main` on every face.
    static let genesisHash = "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f"
    /// The most headers one `blockchain.block.headers` returns.
    static let maxHeaders = 2016
    /// What electrs answers while its index is unavailable (everything else: -32603).
    static let answeredWhileIndexing: Set<String> = [
        "server.version", "blockchain.block.header", "blockchain.block.headers", "blockchain.headers.subscribe",
    ]

    mutating func call(
        _ method: String,
        _ params: [JSONValue],
        world: ElectrumWorld,
        settings: ElectrumSettings,
        close: inout Bool
    ) -> Result<JSONValue, ElectrumError> {
        let chain = world.chain
        if settings.missingMethods.contains(method) { return .failure(.methodNotFound) }
        if settings.indexUnavailable, !Self.answeredWhileIndexing.contains(method) {
            return .failure(.unavailableIndex)
        }
        switch method {
        case "server.version":
            let outcome = negotiate(params, settings: settings)
            if case .failure = outcome { close = true }
            return outcome
        case "server.features": return .success(features(settings, network: chain.parameters.network))
        case "server.ping": return .success(.null)
        case "blockchain.headers.subscribe": return .success(subscribeHeaders(tip: chain.tip))
        case "blockchain.block.header":
            guard let height = Self.int(params, 0), Self.noCheckpoint(params, 1) else {
                return .failure(.invalidParams)
            }
            guard let block = chain.block(height: height) else { return .failure(.failed("missing header \(height)")) }
            return .success(.string(Hex.encode(block.header.serialized())))
        case "blockchain.block.headers":
            guard let start = Self.int(params, 0), let count = Self.int(params, 1), count >= 0,
                Self.noCheckpoint(params, 2)
            else { return .failure(.invalidParams) }
            return headers(start: start, count: count, settings: settings, chain: chain)
        case "blockchain.scripthash.subscribe":
            guard let scripthash = Self.scripthash(params) else { return .failure(.invalidParams) }
            return subscribe(scripthash, world: world, settings: settings)
        case "blockchain.scripthash.unsubscribe":
            guard let scripthash = Self.scripthash(params) else { return .failure(.invalidParams) }
            return .success(.bool(unsubscribe(scripthash)))
        case "blockchain.scripthash.get_history":
            guard let scripthash = Self.scripthash(params) else { return .failure(.invalidParams) }
            return Self.limited(scripthash, world: world, settings: settings).map {
                .array($0 ? [] : Self.history(scripthash, world: world, mempoolOnly: false))
            }
        case "blockchain.scripthash.get_mempool":
            guard settings.personality != .electrs else { return .failure(.methodNotFound) }
            guard let scripthash = Self.scripthash(params) else { return .failure(.invalidParams) }
            return Self.limited(scripthash, world: world, settings: settings).map {
                .array($0 ? [] : Self.history(scripthash, world: world, mempoolOnly: true))
            }
        case "blockchain.scripthash.get_balance":
            guard let scripthash = Self.scripthash(params) else { return .failure(.invalidParams) }
            let (confirmed, unconfirmed) = world.address(scripthash).map { world.index.balance(of: $0) } ?? (0, 0)
            return .success(
                .object([.init("confirmed", .integer(confirmed)), .init("unconfirmed", .integer(unconfirmed))])
            )
        case "blockchain.scripthash.listunspent":
            guard let scripthash = Self.scripthash(params) else { return .failure(.invalidParams) }
            let silenced = Self.overLimit(scripthash, world: world, settings: settings)
            let unspent = silenced ? [] : world.address(scripthash).map { world.index.unspent(of: $0) } ?? []
            return .success(
                .array(
                    unspent.map {
                        .object([
                            .init("height", .integer($0.height)), .init("tx_hash", .string($0.txHash)),
                            .init("tx_pos", .integer($0.txPos)), .init("value", .integer($0.value)),
                        ])
                    }
                )
            )
        case "blockchain.transaction.get":
            guard let txid = Self.txid(params, 0) else { return .failure(.invalidParams) }
            switch params.count > 1 ? params[1] : .bool(false) {
            case .bool(false): break
            case .bool(true): return .failure(.verboseUnsupported)
            default: return .failure(.invalidParams)
            }
            guard let tx = chain.transaction(txid) else { return .failure(.noSuchTransaction) }
            return .success(.string(tx.raw.hex()))
        case "blockchain.transaction.get_merkle":
            guard let txid = Self.txid(params, 0), let height = Self.int(params, 1) else {
                return .failure(.invalidParams)
            }
            guard let (branch, position) = world.index.merkle(of: txid, height: height) else {
                return .failure(.failed("tx \(txid) is not in block \(height)"))
            }
            return .success(
                .object([
                    .init("block_height", .integer(height)), .init("merkle", .array(branch.map(JSONValue.string))),
                    .init("pos", .integer(position)),
                ])
            )
        case "blockchain.estimatefee":
            // The world's next-block rate as BTC/kvB with 8 decimals, whatever the target.
            guard Self.int(params, 0) != nil else { return .failure(.invalidParams) }
            return .success(.number(FeeRate.btcPerKvBText(satPerVB: world.feeRate) ?? "-1"))
        case "blockchain.relayfee": return .success(.number("0.00001000"))
        default: return .failure(.methodNotFound)
        }
    }

    private func features(_ settings: ElectrumSettings, network: SimnetNetwork) -> JSONValue {
        let protocols = settings.personality.protocols
        let genesis = network == .regtest ? RegtestGenesis.hash : Self.genesisHash
        return .object([
            .init("genesis_hash", .string(genesis)),
            .init("hash_function", .string("sha256")),
            .init("hosts", .object([])),
            .init("protocol_max", .string(protocols[protocols.count - 1])),
            .init("protocol_min", .string(protocols[0])),
            .init("pruning", .null),
            .init("server_version", .string(settings.personality.software)),
        ])
    }

    /// Up to `count` headers from `start` (at most ``maxHeaders``, fewer past the tip): concatenated in `hex` below
    /// protocol 1.6, one string each in `headers` from 1.6.
    private func headers(start: Int, count: Int, settings: ElectrumSettings, chain: ChainModel)
        -> Result<JSONValue, ElectrumError>
    {
        let first = chain.parameters.startHeight
        guard start >= first || count == 0 else { return .failure(.failed("missing header \(start)")) }
        let end = min(start + min(count, Self.maxHeaders), chain.tip.height + 1)
        let headers = start < end ? (start..<end).compactMap { chain.block(height: $0) } : []
        let hexes = headers.map { Hex.encode($0.header.serialized()) }
        let shape: JSONValue.Member =
            Self.compare(version(settings), "1.6") == .orderedAscending
            ? .init("hex", .string(hexes.joined())) : .init("headers", .array(hexes.map(JSONValue.string)))
        return .success(
            .object([.init("count", .integer(hexes.count)), shape, .init("max", .integer(Self.maxHeaders))])
        )
    }

    private static func history(_ scripthash: String, world: ElectrumWorld, mempoolOnly: Bool) -> [JSONValue] {
        let entries = world.address(scripthash).map { world.index.history(of: $0) } ?? []
        return entries.filter { !mempoolOnly || $0.height <= 0 }.map { entry in
            var members: [JSONValue.Member] = []
            if let fee = entry.fee { members.append(.init("fee", .integer(fee))) }
            members += [.init("height", .integer(entry.height)), .init("tx_hash", .string(entry.txHash))]
            return .object(members)
        }
    }

    /// Whether `scripthash`'s history is longer than the settings' `maxHistory`, for a server that limits it
    /// (Fulcrum, ElectrumX).
    static func overLimit(_ scripthash: String, world: ElectrumWorld, settings: ElectrumSettings) -> Bool {
        guard let limit = settings.maxHistory, settings.personality != .electrs,
            let address = world.address(scripthash)
        else { return false }
        return world.index.history(of: address).count > limit
    }

    /// How a history past the limit is answered: ElectrumX refuses it (error 10001), Fulcrum serves it empty
    /// (`true`: answer as if empty), silently.
    static func limited(_ scripthash: String, world: ElectrumWorld, settings: ElectrumSettings)
        -> Result<Bool, ElectrumError>
    {
        guard overLimit(scripthash, world: world, settings: settings) else { return .success(false) }
        return settings.personality == .electrumx ? .failure(.historyTooLarge) : .success(true)
    }

    static func int(_ params: [JSONValue], _ index: Int) -> Int? {
        guard index < params.count, case .number(let text) = params[index] else { return nil }
        return Int(text)
    }

    /// electrs takes no `cp_height` (serde refuses the extra argument); 0 means none.
    static func noCheckpoint(_ params: [JSONValue], _ index: Int) -> Bool {
        index >= params.count || int(params, index) == 0
    }

    /// A 64-hex-digit scripthash as the first parameter, lower-cased.
    static func scripthash(_ params: [JSONValue]) -> String? {
        txid(params, 0)
    }

    static func txid(_ params: [JSONValue], _ index: Int) -> String? {
        guard index < params.count, let text = params[index].stringValue, text.utf8.count == 64,
            text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || ($0 >= 65 && $0 <= 70) })
        else { return nil }
        return text.lowercased()
    }
}

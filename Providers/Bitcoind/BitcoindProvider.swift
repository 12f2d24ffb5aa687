import Foundation
import WatcherBitcoin
import WatcherCore
import WatcherHTTP
import WatcherJSON

/// How a `bitcoind` provider authenticates.
public enum BitcoindAuth: Sendable, SecretBearing {
    /// Core's cookie file, read again after a 401 (the node writes a new one at every start).
    case cookieFile(String)
    /// An `rpcuser`/`rpcauth` user and its password.
    case password(user: String, password: String)
}

/// Your own Bitcoin Core node as a ``ChainProvider``, over JSON-RPC (`POST /`) and optionally REST (`/rest/`).
///
/// Calls: `getblockchaininfo` (tip, health, with `getnetworkinfo` in the same batch for health), `getblockhash`,
/// `getblockheader`, `getblock <hash> 3` (or `0` without prevouts), `getrawtransaction <txid> 2 [blockhash]`,
/// `getrawmempool`, and `scantxoutset` for starting balances. With `rest`, headers, hashes by height and blocks come from `/rest/headers/<hash>.json`,
/// `/rest/blockhashbyheight/<h>.hex` and `/rest/block/<hash>.json|.hex`. There is no address index in Core, so it
/// serves no address summaries or histories: address and wallet watches scan its blocks.
public struct BitcoindProvider: ChainProvider {
    public let id: String
    public var capabilities: ChainCapabilities { BitcoindPlugin.descriptor.chainCapabilities }
    public var requestsPerTip: Int { BitcoindPlugin.descriptor.requestsPerTip }
    /// Transactions per page of ``blockTransactions(_:page:)``, cut from the one block read.
    public static let pageSize = 1000
    let rpc: BitcoindRPC
    let decoder: BitcoindDecoder
    let expectedChain: String?
    /// The config's chain id, named in a ``ChainMismatch``.
    let configuredChain: String
    let rest: Bool
    let prevouts: Bool
    /// The budget of one `scantxoutset` (``unspentBalances(_:)``), instead of the `timeout` option.
    var scanTimeout: Duration = .seconds(1200)
    /// One scan at a time (shared by the copies of this provider).
    let scanGate = BitcoindScanGate()
    let cache = BitcoindCache()
    /// The ZMQ hint (option `zmq`), `nil` when off.
    public var zmq: BitcoindZMQ?
    public var push: (any ChainPushing)? { zmq }

    /// Creates a provider for the node at `baseURL`.
    /// - Parameters:
    ///   - chain: the config's chain id (`btc`, `btc-testnet4`, `btc-regtest`…): the node's chain must match it,
    ///     and addresses are spelled on its network.
    ///   - rest: whether headers, block hashes and blocks come from `/rest/`.
    ///   - prevouts: whether block transactions carry their inputs' prevouts (`getblock <hash> 3`, Core 23+ with
    ///     undo data) or not (`getblock <hash> 0`, the raw block only).
    public init(
        id: String,
        baseURL: String,
        http: any HTTPFetching,
        options: HTTPOptions = .standard,
        auth: BitcoindAuth,
        chain: String? = "btc",
        rest: Bool = false,
        prevouts: Bool = true
    ) {
        self.id = id
        let source: BitcoindCredentials.Source =
            switch auth {
            case .cookieFile(let path): .cookie(path: path)
            case .password(let user, let password): .password(user: user, password: password)
            }
        rpc = BitcoindRPC(
            http: ProviderHTTP(provider: id, baseURL: baseURL, http: http, options: options),
            credentials: BitcoindCredentials(source, provider: id)
        )
        decoder = BitcoindDecoder(provider: id, network: BitcoinAddress.Network(chain: chain ?? "btc") ?? .mainnet)
        expectedChain = BitcoindChainInfo.coreChain(chain)
        configuredChain = chain ?? "btc"
        self.rest = rest
        self.prevouts = prevouts
    }

    /// `getblockchaininfo` and `getnetworkinfo` in one batch: synced (out of IBD, headers == blocks), not warming
    /// up (`-28`). The network version picks JSON-RPC 2.0 for Core 28 and later.
    /// - Throws: ``ChainMismatch`` when the node runs another chain than the configured one.
    public func health() async throws -> ProviderHealth {
        let replies = try await rpc.batch(
            [("getblockchaininfo", []), ("getnetworkinfo", [])],
            what: "blockchain info"
        )
        for reply in replies {
            if case .failure(let failure) = reply, failure.code == -28 {
                return ProviderHealth(isHealthy: false, reason: "warming up: \(failure.message)")
            }
        }
        let info = try BitcoindChainInfo(try replies[0].get(rpc, what: "blockchain info"), decoder: decoder)
        try verify(info)
        if case .success(let network) = replies[1], let version = try? network.required("version").int() {
            rpc.useVersion2(version)
        }
        return info.health(expecting: expectedChain)
    }

    /// The best block from one `getblockchaininfo` (height and hash from the same call): refused while the node
    /// warms up or syncs.
    /// - Throws: ``ChainMismatch`` when the node runs another chain than the configured one.
    public func tip() async throws -> BlockRef {
        let info = try await chainInfo()
        try verify(info)
        let health = info.health(expecting: expectedChain)
        guard health.isHealthy else {
            throw ProviderError.unavailable(provider: id, status: nil, detail: health.reason)
        }
        return BlockRef(height: info.blocks, hash: info.bestBlockHash)
    }

    /// Throws ``ChainMismatch`` when `info` names another chain than the configured one.
    func verify(_ info: BitcoindChainInfo) throws {
        guard let expectedChain, info.chain != expectedChain else { return }
        throw ChainMismatch(
            provider: id,
            reported: info.chain,
            source: "getblockchaininfo.chain",
            configured: configuredChain,
            expected: expectedChain
        )
    }

    func chainInfo() async throws -> BitcoindChainInfo {
        try BitcoindChainInfo(try await rpc.call("getblockchaininfo", what: "blockchain info"), decoder: decoder)
    }

    public func block(_ block: BlockID) async throws -> BlockHeader {
        let hash = try await blockHash(block)
        let header = try await header(hash: hash)
        if case .height(let height) = block, header.height != height {
            throw ProviderError.invalidResponse(
                provider: id,
                detail: "asked for block \(height), got block \(header.height)"
            )
        }
        return header
    }

    /// The header of `hash`: `getblockheader <hash>`, or REST `headers/<hash>.json?count=1`.
    func header(hash: String) async throws -> BlockHeader {
        let what = "block \(hash)"
        let node: ProviderHTTP.JSONNode
        if rest {
            let body = try await rpc.rest("headers/\(hash).json?count=1", what: what)
            let list = try ProviderHTTP.json(body, provider: id).array()
            guard let first = list.first else { throw ProviderError.notFound(provider: id, what: what) }
            node = first
        } else {
            node = try await rpc.call("getblockheader", [.string(hash)], what: what)
        }
        let header = try decoder.header(node)
        guard header.hash == hash else {
            throw node.failure("asked for block \(hash), got \(header.hash)")
        }
        return header
    }

    /// The hash a block id names: as given, or `getblockhash <height>` (REST `blockhashbyheight/<h>.hex`). `-8`
    /// (height out of range) means the tip moved or is not there yet: the tip is read again, and the height asked
    /// once more if it is now at or below it.
    func blockHash(_ block: BlockID) async throws -> String {
        switch block {
        case .hash(let hash):
            guard Hex.isHash(hash) else {
                throw ProviderError.badRequest(provider: id, detail: "\(hash) is not a block hash")
            }
            return hash.lowercased()
        case .height(let height):
            for attempt in 0..<2 {
                if let hash = try await hash(at: height) { return hash }
                let tip = try await chainInfo()
                if height > tip.blocks || attempt == 1 {
                    throw ProviderError.notFound(provider: id, what: "block \(height) (the tip is at \(tip.blocks))")
                }
            }
            throw ProviderError.notFound(provider: id, what: "block \(height)")
        }
    }

    /// The hash at `height`, or `nil` when the node says the height is out of range.
    private func hash(at height: Int) async throws -> String? {
        let what = "block \(height)"
        if rest {
            do {
                let body = try await rpc.rest("blockhashbyheight/\(height).hex", what: what)
                let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                return try decoder.hash(ProviderHTTP.JSONNode(.string(text), path: "blockhashbyheight", provider: id))
            } catch ProviderError.notFound {
                return nil
            }
        }
        switch try await rpc.attempt("getblockhash", [.number("\(height)")], what: what) {
        case .success(let node): return try decoder.hash(node)
        case .failure(let failure) where failure.code == -8: return nil
        case .failure(let failure): throw rpc.error(failure, what: what)
        }
    }

    /// A page of the block's transactions, cut (``pageSize`` a page) from the whole block read once.
    public func blockTransactions(_ block: BlockID, page: Int) async throws -> BlockTxPage {
        guard page >= 1 else { throw ProviderError.badRequest(provider: id, detail: "page \(page) is below 1") }
        let hash = try await blockHash(block)
        let all: [ChainTransaction]
        if let cached = cache.transactions(of: hash) {
            all = cached
        } else {
            all = try await readBlock(hash)
            cache.store(all, of: hash)
        }
        if case .height(let height) = block, let first = all.first, first.blockHeight != height {
            throw ProviderError.invalidResponse(
                provider: id,
                detail: "asked for block \(height), got \(first.blockHeight ?? -1)"
            )
        }
        let pages = max(1, (all.count + Self.pageSize - 1) / Self.pageSize)
        // A page past the last is empty, as Blockbook answers it (the contract kit's rule for every provider).
        guard page <= pages else { return BlockTxPage(page: page, totalPages: pages, transactions: []) }
        let start = (page - 1) * Self.pageSize
        return BlockTxPage(
            page: page,
            totalPages: pages,
            transactions: Array(all[start..<min(all.count, start + Self.pageSize)])
        )
    }

    /// Every transaction of block `hash`.
    func readBlock(_ hash: String) async throws -> [ChainTransaction] {
        let what = "block \(hash)"
        if prevouts {
            let node: ProviderHTTP.JSONNode
            if rest {
                node = try ProviderHTTP.json(try await rpc.rest("block/\(hash).json", what: what), provider: id)
            } else {
                node = try await rpc.call("getblock", [.string(hash), .number("3")], what: what)
            }
            guard try decoder.hash(node.required("hash")) == hash else {
                throw node.failure("asked for block \(hash), got \((try? node.required("hash").string()) ?? "?")")
            }
            let height = try node.required("height").int()
            let time = try node["time"].map { Date(timeIntervalSince1970: TimeInterval(try $0.int64())) }
            return try node.required("tx").array().map {
                var transaction = try decoder.transaction($0, height: height, blockHash: hash)
                transaction.time = transaction.time ?? time
                return transaction
            }
        }
        if rest {
            let body = try await rpc.rest("block/\(hash).hex", what: what)
            let height = try await header(hash: hash).height
            let node = ProviderHTTP.JSONNode(.null, path: "block", provider: id)
            return try decoder.rawBlock(String(decoding: body, as: UTF8.self), hash: hash, height: height, at: node)
                .transactions
        }
        // The raw block and its height in one round trip.
        let replies = try await rpc.batch(
            [("getblock", [.string(hash), .number("0")]), ("getblockheader", [.string(hash)])],
            what: what
        )
        let raw = try replies[0].get(rpc, what: what)
        let height = try decoder.header(try replies[1].get(rpc, what: what)).height
        return try decoder.rawBlock(try raw.string(), hash: hash, height: height, at: raw).transactions
    }

    /// One transaction: `getrawtransaction <txid> 2`, with the block hash when a recent block read held it (what a
    /// node without `-txindex` needs), and `getblockheader` of its block for the height, batched when the block is
    /// known beforehand.
    public func transaction(_ txid: String) async throws -> ChainTransaction {
        guard Hex.isHash(txid) else { throw ProviderError.badRequest(provider: id, detail: "\(txid) is not a txid") }
        let txid = txid.lowercased()
        let what = "transaction \(txid)"
        let node: ProviderHTTP.JSONNode
        var height: Int?
        let hint = cache.blockHash(of: txid)
        if let hint {
            let replies = try await rpc.batch(
                [
                    ("getrawtransaction", [.string(txid), .number("2"), .string(hint)]),
                    ("getblockheader", [.string(hint)]),
                ],
                what: what
            )
            node = try replies[0].get(rpc, what: missing(txid))
            height = try decoder.header(try replies[1].get(rpc, what: "block \(hint)")).height
        } else {
            node = try await lookUp(txid)
        }
        let decoded = try decoder.transaction(node, height: height, blockHash: hint)
        guard decoded.txid == txid else {
            throw node.failure("asked for transaction \(txid), got \(decoded.txid)")
        }
        let transaction = try await valuingInputs(of: decoded, from: node)
        guard height == nil, let blockHash = transaction.blockHash else { return transaction }
        var confirmed = transaction
        confirmed.blockHeight = try await header(hash: blockHash).height
        return confirmed
    }

    private func lookUp(_ txid: String) async throws -> ProviderHTTP.JSONNode {
        switch try await rpc.attempt("getrawtransaction", [.string(txid), .number("2")], what: "transaction \(txid)") {
        case .success(let node): return node
        case .failure(let failure): throw rpc.error(failure, what: missing(txid, failure))
        }
    }

    /// What a `-5` for `txid` names: with Core's hint when the node has no txindex.
    private func missing(_ txid: String, _ failure: RPCFailure? = nil) -> String {
        guard let failure, failure.message.contains("txindex") else { return "transaction \(txid)" }
        return "transaction \(txid) (the node has no -txindex, and no recent block read held it)"
    }
}

extension Result where Success == ProviderHTTP.JSONNode, Failure == RPCFailure {
    /// The result, or the mapped error.
    func get(_ rpc: BitcoindRPC, what: String) throws -> ProviderHTTP.JSONNode {
        switch self {
        case .success(let node): return node
        case .failure(let failure): throw rpc.error(failure, what: what)
        }
    }
}

import WatcherBitcoin
import WatcherCore
import WatcherHTTP

/// What `getblockchaininfo` (or REST `/rest/chaininfo.json`) says about the node's chain and sync state.
struct BitcoindChainInfo: Sendable, Equatable {
    /// `main`, `test`, `testnet4`, `signet` or `regtest`.
    var chain: String
    /// Blocks validated.
    var blocks: Int
    /// Headers known.
    var headers: Int
    /// The best block's hash.
    var bestBlockHash: String
    /// Still in initial block download (absent before Core 0.16: then `headers == blocks` decides).
    var initialBlockDownload: Bool
    /// Whether old blocks are deleted, and below which height.
    var pruned: Bool
    var pruneHeight: Int?

    init(_ node: ProviderHTTP.JSONNode, decoder: BitcoindDecoder) throws {
        chain = try node.required("chain").string()
        blocks = try node.required("blocks").int()
        headers = try node.required("headers").int()
        bestBlockHash = try decoder.hash(node.required("bestblockhash"))
        initialBlockDownload = try node["initialblockdownload"]?.bool() ?? false
        pruned = try node["pruned"]?.bool() ?? false
        pruneHeight = try node["pruneheight"]?.int()
    }

    /// Synced: out of initial block download with every known header validated (never `verificationprogress`,
    /// which stays below 1).
    var isSynced: Bool { !initialBlockDownload && headers == blocks }

    /// The health it makes, against the Core chain name the config's chain expects (`nil`: not checked).
    func health(expecting expected: String?) -> ProviderHealth {
        if let expected, expected != chain {
            return ProviderHealth(
                isHealthy: false,
                reason: Self.mismatch(node: chain, expected: expected),
                bestHeight: blocks
            )
        }
        if initialBlockDownload {
            return ProviderHealth(
                isHealthy: false,
                reason: "in initial block download (\(blocks) of \(headers) headers validated)",
                bestHeight: blocks
            )
        }
        if headers != blocks {
            return ProviderHealth(
                isHealthy: false,
                reason: "catching up: \(blocks) blocks validated of \(headers) headers",
                bestHeight: blocks
            )
        }
        return ProviderHealth(isHealthy: true, bestHeight: blocks)
    }

    /// The words of a chain mismatch as a health reason (the provider throws ``ChainMismatch`` before it gets here).
    static func mismatch(node: String, expected: String) -> String {
        "chain mismatch: the node runs \"\(node)\" but the provider's chain wants \"\(expected)\""
    }

    /// The Core chain name (`getblockchaininfo.chain`) a config chain id means: `btc` → `main`, `btc-testnet` →
    /// `test`, `btc-testnet4` → `testnet4`, `btc-signet` → `signet`, `btc-regtest` → `regtest`; `nil` for ids that
    /// name no Bitcoin network.
    static func coreChain(_ configChain: String?) -> String? {
        switch configChain?.lowercased() {
        case "btc", "bitcoin", "btc-mainnet": "main"
        case "btc-testnet", "btc-testnet3", "tbtc", "testnet": "test"
        case "btc-testnet4", "testnet4": "testnet4"
        case "btc-signet", "signet": "signet"
        case "btc-regtest", "regtest": "regtest"
        default: nil
        }
    }
}

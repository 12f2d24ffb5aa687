import Foundation

/// What a chain provider can do; the engine plans requests by it.
public struct ChainCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Tip height and hash.
    public static let tip = ChainCapabilities(rawValue: 1 << 0)
    /// Block headers by height or hash.
    public static let block = ChainCapabilities(rawValue: 1 << 1)
    /// A block's transactions, by page.
    public static let blockTransactions = ChainCapabilities(rawValue: 1 << 2)
    /// Address summaries.
    public static let address = ChainCapabilities(rawValue: 1 << 3)
    /// An address's transactions.
    public static let addressTransactions = ChainCapabilities(rawValue: 1 << 4)
    /// One transaction.
    public static let transaction = ChainCapabilities(rawValue: 1 << 5)
    /// Many address summaries in one request.
    public static let addressBatch = ChainCapabilities(rawValue: 1 << 6)
    /// A sync-state probe.
    public static let status = ChainCapabilities(rawValue: 1 << 7)
    /// A whole wallet (an extended key or output descriptor) in one request: used addresses with their paths and
    /// the transactions (Blockbook's `/api/v2/xpub`); the `xpub` strategy of wallet watches.
    public static let walletSummary = ChainCapabilities(rawValue: 1 << 8)
    /// The mempool as a whole: its txids, and its transactions read in batches (Bitcoin Core's `getrawmempool` and
    /// `getrawtransaction`), so mempool payments to scanned addresses and wallets are found without a request per
    /// address.
    public static let mempool = ChainCapabilities(rawValue: 1 << 9)
    /// Who spends the outputs of a transaction (``ChainProvider/spends(of:outputs:)``): Blockbook's
    /// `?spending=true`, Core's `gettxspendingprevout`, Esplora's `outspends`. It names the replacement of a followed
    /// mempool transaction that vanished.
    public static let spenders = ChainCapabilities(rawValue: 1 << 10)
    /// The confirmed balances of many addresses read from the UTXO set at the tip (a node's `scantxoutset`): the
    /// starting balances of scanned watches on a provider without an address index.
    public static let utxoScan = ChainCapabilities(rawValue: 1 << 12)
    /// Many consecutive headers in one or two requests (``ChainProvider/headers(from:count:)``: Bitcoin Core's REST
    /// `headers` or a JSON-RPC batch, Electrum's `blockchain.block.headers`), so the recent blocks a fresh data
    /// directory shows cost a request or two instead of one a block.
    public static let headerBatch = ChainCapabilities(rawValue: 1 << 13)
    /// A fee-rate estimate for confirmation within a number of blocks (``ChainProvider/feeRate(blocks:)``:
    /// Blockbook's `/api/v2/estimatefee`, Core's `estimatesmartfee`, Electrum's `blockchain.estimatefee`), so a
    /// zero-conf payment can be held to what the next block needs.
    public static let feeEstimate = ChainCapabilities(rawValue: 1 << 14)

    /// Names as used in `Plugins.json`.
    public static let names: [(String, ChainCapabilities)] = [
        ("tip", .tip), ("block", .block), ("blockTransactions", .blockTransactions), ("address", .address),
        ("addressTransactions", .addressTransactions), ("transaction", .transaction), ("addressBatch", .addressBatch),
        ("status", .status), ("walletSummary", .walletSummary), ("mempool", .mempool),
        ("spenders", .spenders), ("utxoScan", .utxoScan), ("headerBatch", .headerBatch),
        ("feeEstimate", .feeEstimate),
    ]

    /// The capability names this set holds.
    public var names: [String] { Self.names.filter { contains($0.1) }.map(\.0) }

    /// The set named by catalog capability names; names that are not chain capabilities (`prices`) are ignored.
    public init(names: [String]) {
        self = Self.names.filter { names.contains($0.0) }.reduce(into: []) { $0.formUnion($1.1) }
    }
}

/// A source of chain data: Blockbook, a blockchain.info-style API, or your own.
///
/// Amounts are exact satoshi integers. Confirmations are computed from the tip by the caller, never taken from
/// the provider. Methods the provider cannot serve throw ``ProviderError/unsupported(provider:operation:)``,
/// which the default implementations do. Every adapter must pass the contract kit in `WatcherTesting`.
///
/// ## Example
/// ```swift
/// let tip = try await provider.tip()
/// let summary = try await provider.address("bc1q...")
/// ```
public protocol ChainProvider: Sendable {
    /// The config id, e.g. `bb`.
    var id: String { get }
    /// What it can do.
    var capabilities: ChainCapabilities { get }
    /// HTTP requests one ``tip()`` makes, so the rate limiter counts them all (1 unless the adapter says).
    var requestsPerTip: Int { get }
    /// Whether it is in sync and usable.
    func health() async throws -> ProviderHealth
    /// The best block.
    func tip() async throws -> BlockRef
    /// One block header.
    func block(_ id: BlockID) async throws -> BlockHeader
    /// The headers of up to `count` consecutive blocks of the provider's main chain from `height` upward, lowest
    /// first; heights past its tip are left out (``ChainCapabilities/headerBatch``; default: unsupported).
    func headers(from height: Int, count: Int) async throws -> [BlockHeader]
    /// HTTP requests one ``headers(from:count:)`` call makes at most, so the rate limiter counts them all (1 unless
    /// the adapter says).
    var requestsPerHeaders: Int { get }
    /// One page (1-based) of a block's transactions.
    func blockTransactions(_ id: BlockID, page: Int) async throws -> BlockTxPage
    /// One address's summary.
    func address(_ address: String) async throws -> AddressSummary
    /// Summaries of many addresses, in any order.
    func addresses(_ addresses: [String]) async throws -> [AddressSummary]
    /// An address's transactions, newest first, up to `limit`; stops at `after` (exclusive) when given.
    func addressTransactions(_ address: String, limit: Int, after txid: String?) async throws -> [AddressTx]
    /// One transaction.
    func transaction(_ txid: String) async throws -> ChainTransaction
    /// Transaction `txid` as the provider confirms it in block `hash` at `height` (what another provider claims),
    /// for ``Agreement``: the provider checks the block its own way (a block-scoped lookup, a merkle proof) and
    /// answers the transaction with the block it found it in, or throws ``ProviderError/notFound(provider:what:)``.
    /// Default: ``transaction(_:)``.
    func confirmation(of txid: String, inBlock hash: String, height: Int) async throws -> ChainTransaction
    /// One page (1-based, up to `pageSize` confirmed transactions) of a whole wallet: `descriptor` as the provider
    /// takes it (an output descriptor or a bare extended key), derived up to the last used address plus `gap` on
    /// each branch.
    func walletSummary(_ descriptor: String, gap: Int, page: Int, pageSize: Int) async throws -> WalletSummary
    /// The txids in the mempool (``ChainCapabilities/mempool``).
    func mempoolTxids() async throws -> [String]
    /// The transactions of `txids` (at most ``mempoolBatch``) that are still in the mempool, with their inputs
    /// valued where the provider can and their zero-conf facts (``ChainCapabilities/mempool``).
    func mempoolTransactions(_ txids: [String]) async throws -> [MempoolTransaction]
    /// Most txids one ``mempoolTransactions(_:)`` call takes (50 unless the adapter says).
    var mempoolBatch: Int { get }
    /// HTTP requests one ``mempoolTransactions(_:)`` call makes at most, so the rate limiter counts them all.
    var requestsPerMempoolRead: Int { get }
    /// Who spends the outputs `outputs` (indexes) of transaction `txid`, in one request where the provider can. An
    /// output the provider cannot tell about is left out; a `txid` it does not know answers
    /// ``OutputSpend/parentMissing`` for each output (not ``ProviderError/notFound(provider:what:)``).
    func spends(of txid: String, outputs: [Int]) async throws -> [Int: OutputSpend]
    /// The confirmed balances of `addresses` from the UTXO set, with the block it was read at (``ChainCapabilities/utxoScan``;
    /// default: unsupported). One long request for all of them.
    func unspentBalances(_ addresses: [String]) async throws -> UTXOBalances
    /// The fee rate in sat/vB a transaction needs to confirm within `blocks` blocks, as the provider estimates it
    /// (``ChainCapabilities/feeEstimate``; default: unsupported). Exact: read from the provider's BTC per 1,000
    /// vbytes text (``FeeRate``), never through `Double`. A provider without an estimate (too little data, as on
    /// regtest) throws ``ProviderError/notFound(provider:what:)``. One request.
    func feeRate(blocks: Int) async throws -> Decimal
    /// Its push connection, when the adapter has one and its options enable it (default: none).
    var push: (any ChainPushing)? { get }
}

extension ChainProvider {
    public var requestsPerTip: Int { 1 }

    public func health() async throws -> ProviderHealth { ProviderHealth(isHealthy: true) }

    public func block(_ id: BlockID) async throws -> BlockHeader {
        throw ProviderError.unsupported(provider: self.id, operation: "block")
    }

    public func blockTransactions(_ id: BlockID, page: Int) async throws -> BlockTxPage {
        throw ProviderError.unsupported(provider: self.id, operation: "blockTransactions")
    }

    public func headers(from height: Int, count: Int) async throws -> [BlockHeader] {
        throw ProviderError.unsupported(provider: id, operation: "headers")
    }

    public var requestsPerHeaders: Int { 1 }

    public func address(_ address: String) async throws -> AddressSummary {
        throw ProviderError.unsupported(provider: id, operation: "address")
    }

    /// Without a batch endpoint, asks one address at a time.
    public func addresses(_ addresses: [String]) async throws -> [AddressSummary] {
        var result: [AddressSummary] = []
        for address in addresses { result.append(try await self.address(address)) }
        return result
    }

    public func addressTransactions(_ address: String, limit: Int, after txid: String?) async throws -> [AddressTx] {
        throw ProviderError.unsupported(provider: id, operation: "addressTransactions")
    }

    public func transaction(_ txid: String) async throws -> ChainTransaction {
        throw ProviderError.unsupported(provider: id, operation: "transaction")
    }

    public func confirmation(of txid: String, inBlock hash: String, height: Int) async throws -> ChainTransaction {
        try await transaction(txid)
    }

    public func walletSummary(_ descriptor: String, gap: Int, page: Int, pageSize: Int) async throws -> WalletSummary {
        throw ProviderError.unsupported(provider: id, operation: "walletSummary")
    }

    public func mempoolTxids() async throws -> [String] {
        throw ProviderError.unsupported(provider: id, operation: "mempool")
    }

    public func mempoolTransactions(_ txids: [String]) async throws -> [MempoolTransaction] {
        throw ProviderError.unsupported(provider: id, operation: "mempool")
    }

    public var mempoolBatch: Int { 50 }

    public var requestsPerMempoolRead: Int { 1 }
    public func spends(of txid: String, outputs: [Int]) async throws -> [Int: OutputSpend] {
        throw ProviderError.unsupported(provider: id, operation: "spends")
    }

    public func feeRate(blocks: Int) async throws -> Decimal {
        throw ProviderError.unsupported(provider: id, operation: "feeRate")
    }
}

/// A source of BTC prices in fiat currencies.
///
/// ## Example
/// ```swift
/// let quotes = try await feed.quotes(for: ["USD", "EUR"])
/// ```
public protocol PriceProvider: Sendable {
    /// The config id.
    var id: String { get }
    /// Currencies it can quote, upper case.
    var currencies: [String] { get }
    /// Quotes for the requested currencies (those it has; missing ones are left out).
    func quotes(for currencies: [String]) async throws -> [PriceQuote]
}

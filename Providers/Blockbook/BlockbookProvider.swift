import Foundation
import HTTPTypes
import WatcherCore
import WatcherHTTP

/// A Trezor Blockbook REST v2 instance as a ``ChainProvider`` and, through `/api/v2/tickers/`, a
/// ``PriceProvider``.
///
/// Endpoints: `/api/` (status and sync state), `/api/v2/block-index/<height>`, `/api/v2/block/<id>?page=`,
/// `/api/v2/address/<addr>?details=tokens|txs`, `/api/v2/tx/<txid>`, `/api/v2/estimatefee/<blocks>`,
/// `/api/v2/tickers/`.
/// An instance in initial sync or out of sync is unhealthy: ``health()`` says so and ``tip()`` refuses to
/// report its height. Every answer's shape is validated, since Blockbook answers unknown paths with HTTP 200
/// and its status JSON.
public struct BlockbookProvider: ChainProvider, PriceProvider {
    public let id: String
    public var capabilities: ChainCapabilities { BlockbookPlugin.descriptor.chainCapabilities }
    /// The status page, then the block index (stated in the descriptor).
    public var requestsPerTip: Int { BlockbookPlugin.descriptor.requestsPerTip }
    /// Currencies asked of the tickers endpoint, upper case.
    public let currencies: [String]
    /// Transactions per page when listing an address's history.
    public var historyPageSize = 50
    /// The websocket, when the options enable it.
    public var pushConnection: BlockbookPush?
    public var push: (any ChainPushing)? { pushConnection }
    let http: ProviderHTTP

    /// Creates a provider for the instance at `baseURL`.
    public init(
        id: String,
        baseURL: String,
        http: any HTTPFetching,
        options: HTTPOptions = .standard,
        currencies: [String] = ["USD", "GBP", "EUR"]
    ) {
        self.id = id
        self.http = ProviderHTTP(provider: id, baseURL: baseURL, http: http, options: options)
        self.currencies = currencies.map { $0.uppercased() }
    }

    var decoder: BlockbookDecoder { BlockbookDecoder(provider: id) }

    public func health() async throws -> ProviderHealth {
        try decoder.health(try await status())
    }

    /// The best block Blockbook has indexed: `bestHeight` from the status page (refused while syncing), and
    /// its hash from the block index, so the pair is consistent even when the node is ahead.
    public func tip() async throws -> BlockRef {
        let health = try await health()
        guard health.isHealthy, let height = health.bestHeight else {
            throw ProviderError.unavailable(provider: id, status: nil, detail: health.reason ?? "no best height")
        }
        let node = try await fetch("/api/v2/block-index/\(height)", what: "block \(height)")
        let hash = try node.required("blockHash").string()
        guard !hash.isEmpty else {
            throw ProviderError.unavailable(
                provider: id,
                status: nil,
                detail: "the tip moved below \(height) while probing"
            )
        }
        return BlockRef(height: height, hash: try decoder.hash(hash, at: node))
    }

    public func block(_ block: BlockID) async throws -> BlockHeader {
        try decoder.header(try await blockPage(block, page: 1), matching: block)
    }

    public func blockTransactions(_ block: BlockID, page: Int) async throws -> BlockTxPage {
        guard page >= 1 else { throw ProviderError.badRequest(provider: id, detail: "page \(page) is below 1") }
        let node = try await blockPage(block, page: page)
        _ = try decoder.header(node, matching: block)
        return try decoder.transactionPage(node, requested: page)
    }

    public func address(_ address: String) async throws -> AddressSummary {
        let node = try await fetch(
            "/api/v2/address/\(ProviderHTTP.escape(address))",
            query: [("details", "tokens")],
            what: "address \(address)"
        )
        return try decoder.summary(node, address: address)
    }

    public func addressTransactions(_ address: String, limit: Int, after txid: String?) async throws -> [AddressTx] {
        guard limit > 0 else { return [] }
        let pageSize = min(max(1, historyPageSize), 1000, limit)
        var result: [AddressTx] = []
        var seen: Set<String> = []
        var page = 1
        while result.count < limit {
            let node = try await fetch(
                "/api/v2/address/\(ProviderHTTP.escape(address))",
                query: [("details", "txs"), ("page", "\(page)"), ("pageSize", "\(pageSize)")],
                what: "address \(address)"
            )
            let history = try decoder.history(node, address: address)
            // Blockbook clamps pages past the end to the last page: a page that is not the one asked is the end.
            if history.page != page { break }
            for entry in history.transactions where seen.insert(entry.txid).inserted {
                if entry.txid == txid { return result }
                result.append(entry)
                if result.count == limit { return result }
            }
            let lastPage = history.totalPages > 0 ? page >= history.totalPages : history.transactions.count < pageSize
            if lastPage || history.transactions.isEmpty { break }
            page += 1
        }
        return result
    }

    /// `GET /api/v2/xpub/<descriptor>?details=txs&tokens=used&gap=&page=&pageSize=`: the used addresses with their
    /// paths and balances, and one page of transactions (mempool ones first on page 1). One request.
    public func walletSummary(_ descriptor: String, gap: Int, page: Int, pageSize: Int) async throws -> WalletSummary {
        guard page >= 1 else { throw ProviderError.badRequest(provider: id, detail: "page \(page) is below 1") }
        let node = try await fetch(
            "/api/v2/xpub/\(ProviderHTTP.escape(descriptor))",
            query: [
                ("details", "txs"), ("tokens", "used"), ("gap", "\(min(max(1, gap), 10_000))"), ("page", "\(page)"),
                ("pageSize", "\(min(max(1, pageSize), 1000))"),
            ],
            what: "wallet"
        )
        return try decoder.walletSummary(node, descriptor: descriptor)
    }

    public func transaction(_ txid: String) async throws -> ChainTransaction {
        let node = try await fetch("/api/v2/tx/\(ProviderHTTP.escape(txid))", what: "transaction \(txid)")
        let transaction = try decoder.transaction(node)
        guard transaction.txid.lowercased() == txid.lowercased() else {
            throw node.failure("asked for transaction \(txid), got \(transaction.txid)")
        }
        return transaction
    }

    /// `/api/v2/tx/<txid>?spending=true`: one request for every output of `txid`; an unknown txid (replaced,
    /// evicted or reorged away) answers ``OutputSpend/parentMissing``.
    public func spends(of txid: String, outputs: [Int]) async throws -> [Int: OutputSpend] {
        let node: ProviderHTTP.JSONNode
        do {
            node = try await fetch(
                "/api/v2/tx/\(ProviderHTTP.escape(txid))",
                query: [("spending", "true")],
                what: "the spenders of transaction \(txid)"
            )
        } catch ProviderError.notFound {
            return Dictionary(outputs.map { ($0, OutputSpend.parentMissing) }) { first, _ in first }
        }
        guard try decoder.hash(try node.required("txid").string(), at: node) == txid.lowercased() else {
            throw node.failure("asked for the spenders of transaction \(txid), got another transaction")
        }
        return try decoder.spends(node, outputs: outputs)
    }

    public func quotes(for currencies: [String]) async throws -> [PriceQuote] {
        let node = try await fetch("/api/v2/tickers/", what: "tickers")
        return try decoder.quotes(node, currencies: currencies.map { $0.uppercased() })
    }

    func status() async throws -> ProviderHTTP.JSONNode {
        try await fetch("/api/", what: "status", expectingStatusPage: true)
    }

    private func blockPage(_ block: BlockID, page: Int) async throws -> ProviderHTTP.JSONNode {
        try await fetch(
            "/api/v2/block/\(ProviderHTTP.escape(block.description))",
            query: page == 1 ? [] : [("page", "\(page)")],
            what: "block \(block)"
        )
    }

    /// GETs a path and returns its JSON, mapping Blockbook's errors: 429, 5xx, 400 `{"error":…}` (not found or
    /// rejected) and the status page served for paths it does not know.
    func fetch(
        _ path: String,
        query: [(String, String)] = [],
        what: String,
        expectingStatusPage: Bool = false
    ) async throws -> ProviderHTTP.JSONNode {
        let response = try await http.get(path, query: query)
        try http.checkStatus(response)
        guard response.status == 200 else { throw decoder.clientError(response, what: what) }
        let node = try http.json(response)
        if !expectingStatusPage, node["blockbook"] != nil, node["backend"] != nil {
            throw node.failure("answered \(path) with its status page, not the \(what)")
        }
        if let message = node["error"] {
            throw node.failure("HTTP 200 with an error for the \(what): \((try? message.string()) ?? "?")")
        }
        return node
    }
}

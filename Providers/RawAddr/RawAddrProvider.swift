import Foundation
import WatcherCore
import WatcherHTTP

/// A blockchain.info-style Data API as a ``ChainProvider``: `/latestblock` for the tip, `/rawaddr/<addr>` for
/// one address and its history (`limit`/`offset`, at most 50 a page), `/multiaddr?active=a|b|…` for batches
/// (``batchSize`` addresses a request; the answer's order is not the request's).
///
/// The API mixes mempool transactions into every total (`final_balance`, `n_tx`, `total_received`). The
/// adapter splits them exactly with the transactions of the same answer (unconfirmed ones come first, with
/// `block_height: null`); when the answer cannot show them all, the split fields are `nil`, never a guess.
/// Errors come as plain text (`Invalid Bitcoin Address`, `Rate limited`, HTML 429 pages) and map to
/// ``ProviderError``.
public struct RawAddrProvider: ChainProvider {
    public let id: String
    public var capabilities: ChainCapabilities { RawAddrPlugin.descriptor.chainCapabilities }
    /// Addresses per `/multiaddr` request.
    public let batchSize: Int
    /// Transactions asked of `/rawaddr` per page (the API's maximum is 50).
    static let rawaddrPageSize = 50
    /// Transactions asked of `/multiaddr` (`n`, the API's maximum is 100).
    static let multiaddrTxCount = 100
    let http: ProviderHTTP

    /// Creates a provider for the API at `baseURL`.
    public init(
        id: String,
        baseURL: String,
        http: any HTTPFetching,
        options: HTTPOptions = .standard,
        batchSize: Int = 80
    ) {
        self.id = id
        self.http = ProviderHTTP(provider: id, baseURL: baseURL, http: http, options: options)
        self.batchSize = max(1, batchSize)
    }

    var decoder: RawAddrDecoder { RawAddrDecoder(provider: id) }

    public func tip() async throws -> BlockRef {
        try decoder.tip(try await fetch("/latestblock", what: "latest block"))
    }

    public func address(_ address: String) async throws -> AddressSummary {
        let node = try await fetch(
            "/rawaddr/\(ProviderHTTP.escape(address))",
            query: [("limit", "\(Self.rawaddrPageSize)")],
            what: "address \(address)"
        )
        return try decoder.rawaddrSummary(node, address: address, pageSize: Self.rawaddrPageSize)
    }

    public func addresses(_ addresses: [String]) async throws -> [AddressSummary] {
        var unique: [String] = []
        var seen: Set<String> = []
        for address in addresses where seen.insert(RawAddrDecoder.addressKey(address)).inserted {
            unique.append(address)
        }
        var result: [AddressSummary] = []
        var start = 0
        while start < unique.count {
            let batch = Array(unique[start..<min(unique.count, start + batchSize)])
            let node = try await fetch(
                "/multiaddr",
                query: [("active", batch.joined(separator: "|")), ("n", "\(Self.multiaddrTxCount)")],
                what: "addresses"
            )
            result += try decoder.multiaddrSummaries(node, addresses: batch, txCount: Self.multiaddrTxCount)
            start += batchSize
        }
        return result
    }

    public func addressTransactions(_ address: String, limit: Int, after txid: String?) async throws -> [AddressTx] {
        var result: [AddressTx] = []
        var seen: Set<String> = []
        var offset = 0
        while result.count < limit {
            let node = try await fetch(
                "/rawaddr/\(ProviderHTTP.escape(address))",
                query: [("limit", "\(Self.rawaddrPageSize)"), ("offset", "\(offset)")],
                what: "address \(address)"
            )
            let page = try decoder.rawaddrHistory(node, address: address)
            // New transactions shift the offsets while paging: de-duplicate by txid.
            for entry in page.transactions where seen.insert(entry.txid).inserted {
                if entry.txid == txid { return result }
                result.append(entry)
                if result.count == limit { return result }
            }
            offset += Self.rawaddrPageSize
            if page.transactions.count < Self.rawaddrPageSize || offset >= page.totalCount { break }
        }
        return result
    }

    /// GETs a path and returns its JSON, mapping the API's plain-text and HTML errors.
    func fetch(_ path: String, query: [(String, String)] = [], what: String) async throws -> ProviderHTTP.JSONNode {
        let response = try await http.get(path, query: query)
        if let error = decoder.error(response, what: what, http: http) { throw error }
        let node = try http.json(response)
        if let message = node["error"] {
            let detail = (try? message.string()) ?? "?"
            let text = (try? node["message"]?.string()).flatMap { $0 }.map { ": \($0)" } ?? ""
            throw node.failure("HTTP 200 with an error for the \(what): \(detail)\(text)")
        }
        return node
    }
}

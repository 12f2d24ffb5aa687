import HTTPTypes
import WatcherCore
import WatcherHTTP

/// The REST API of Blockstream's esplora/electrs, as served by `blockstream.info/api`, `mempool.space/api` and
/// self-hosted electrs, as a ``ChainProvider``.
///
/// | operation | requests |
/// | --- | --- |
/// | `tip()` | `GET /blocks/tip/height`, then `GET /block-height/:h` (one consistent pair, even across a new block) |
/// | `block(_:)` | `GET /block/:hash`, after `GET /block-height/:h` when asked by height |
/// | `address(_:)` | `GET /address/:a`: `chain_stats` and `mempool_stats` |
/// | `addressTransactions(_:limit:after:)` | `GET /address/:a/txs` (mempool first, then 25 confirmed), then `GET /address/:a/txs/chain/:last` per 25 |
/// | `transaction(_:)` | `GET /tx/:txid` |
///
/// Block transactions are not declared: Esplora pages them 25 at a time (`/block/:hash/txs/:start`), so scanning a
/// block of 3,000 transactions would take 120 requests, more than Blockstream allows in ten minutes. Addresses are
/// polled instead. Errors come as plain text (`Block not found` with 404, `Invalid hex string` with 400) or, for
/// 429, as Blockstream's JSON notice; all map to ``ProviderError``.
public struct EsploraProvider: ChainProvider {
    public let id: String
    public var capabilities: ChainCapabilities { EsploraPlugin.descriptor.chainCapabilities }
    public var requestsPerTip: Int { EsploraPlugin.descriptor.requestsPerTip }
    /// Confirmed transactions per page of `/address/:a/txs/chain`.
    static let chainPageSize = 25
    let http: ProviderHTTP

    /// Creates a provider for the API at `baseURL` (e.g. `https://blockstream.info/api`).
    public init(id: String, baseURL: String, http: any HTTPFetching, options: HTTPOptions = .standard) {
        self.id = id
        self.http = ProviderHTTP(provider: id, baseURL: baseURL, http: http, options: options)
    }

    var decoder: EsploraDecoder { EsploraDecoder(provider: id) }

    public func tip() async throws -> BlockRef {
        let height = try decoder.height(try await get("/blocks/tip/height", what: nil).body)
        return BlockRef(height: height, hash: try await hash(at: height))
    }

    public func block(_ block: BlockID) async throws -> BlockHeader {
        let hash: String
        switch block {
        case .hash(let value): hash = value.lowercased()
        case .height(let height): hash = try await self.hash(at: height)
        }
        let response = try await get("/block/\(ProviderHTTP.escape(hash))", what: "block \(block)")
        let header = try decoder.block(try http.json(response))
        if case .height(let height) = block, header.height != height {
            throw decoder.invalid("asked for block \(height), the answer is block \(header.height)")
        }
        guard header.hash == hash else {
            throw decoder.invalid("asked for block \(hash), the answer is \(header.hash)")
        }
        return header
    }

    public func address(_ address: String) async throws -> AddressSummary {
        let response = try await get("/address/\(ProviderHTTP.escape(address))", what: "address \(address)")
        return try decoder.summary(try http.json(response), address: address)
    }

    public func addressTransactions(_ address: String, limit: Int, after txid: String?) async throws -> [AddressTx] {
        var result: [AddressTx] = []
        var seen: Set<String> = []
        var path = "/address/\(ProviderHTTP.escape(address))/txs"
        let canonical = EsploraDecoder.canonical(address)
        while result.count < limit {
            let page = try http.json(try await get(path, what: "address \(address)")).array()
            var lastConfirmed: String?
            var confirmedCount = 0
            for node in page {
                let transaction = try decoder.transaction(node)
                if transaction.blockHeight != nil {
                    lastConfirmed = transaction.txid
                    confirmedCount += 1
                }
                // A block found while paging can move a transaction from the mempool part to the chain part.
                guard seen.insert(transaction.txid).inserted else { continue }
                if transaction.txid == txid { return result }
                result.append(decoder.addressTx(transaction, address: canonical))
                if result.count == limit { return result }
            }
            guard confirmedCount >= Self.chainPageSize, let lastConfirmed else { break }
            path = "/address/\(ProviderHTTP.escape(address))/txs/chain/\(lastConfirmed)"
        }
        return result
    }

    public func transaction(_ txid: String) async throws -> ChainTransaction {
        let response = try await get("/tx/\(ProviderHTTP.escape(txid))", what: "transaction \(txid)")
        let transaction = try decoder.transaction(try http.json(response))
        guard transaction.txid == txid.lowercased() else {
            throw decoder.invalid("asked for transaction \(txid), the answer is \(transaction.txid)")
        }
        return transaction
    }

    /// The hash of the block at `height` (`GET /block-height/:h`).
    func hash(at height: Int) async throws -> String {
        try decoder.hash(try await get("/block-height/\(height)", what: "block \(height)").body)
    }

    /// GETs `path` and returns a 200 answer. 429 and 5xx map as everywhere; 404 is `notFound(what)`, or, for the
    /// tip (`what == nil`), a sign that no Esplora API lives at the URL; 400 is `badRequest` with electrs' text.
    func get(_ path: String, what: String?) async throws -> HTTPResponseData {
        let response = try await http.get(path)
        try http.checkStatus(response)
        let text = ProviderHTTP.errorText(response.body)
        switch (response.status, what) {
        case (200, _): return response
        case (404, let what?): throw ProviderError.notFound(provider: id, what: what)
        case (400, let what):
            throw ProviderError.badRequest(provider: id, detail: "\(what ?? path): \(text.isEmpty ? "HTTP 400" : text)")
        default:
            let hint = response.status == 404 ? "no Esplora API at \(http.baseURL)\(path)" : text
            throw ProviderError.unavailable(
                provider: id,
                status: response.status.code,
                detail: hint.isEmpty ? nil : hint
            )
        }
    }
}

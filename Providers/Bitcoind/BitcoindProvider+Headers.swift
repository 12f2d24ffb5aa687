import WatcherCore
import WatcherHTTP
import WatcherJSON

extension BitcoindProvider {
    /// Two requests whatever the count: over REST the hash at `height` (`blockhashbyheight`) and then
    /// `headers/<hash>.json?count=N`; over JSON-RPC one batch of `getblockhash` and one of `getblockheader`.
    public var requestsPerHeaders: Int { 2 }

    /// Up to `count` headers from `height` upward (``ChainCapabilities/headerBatch``), in two requests. Heights past
    /// the node's tip are left out; a header that is not the next height of the one before (the chain moved between
    /// the two requests) ends the list there.
    public func headers(from height: Int, count: Int) async throws -> [BlockHeader] {
        guard count > 0 else { return [] }
        guard height >= 0 else { throw ProviderError.badRequest(provider: id, detail: "height \(height) is below 0") }
        let count = min(count, Self.maxHeaders)
        let headers =
            rest ? try await restHeaders(from: height, count: count) : try await rpcHeaders(from: height, count: count)
        var consecutive: [BlockHeader] = []
        for header in headers {
            guard header.height == height + consecutive.count,
                consecutive.last.map({ $0.hash == header.previousHash }) ?? true
            else { break }
            consecutive.append(header)
        }
        return consecutive
    }

    /// The most headers REST serves in one request (Core's limit is 2000).
    static var maxHeaders: Int { 2000 }

    private func restHeaders(from height: Int, count: Int) async throws -> [BlockHeader] {
        let start: String
        do {
            start = try await blockHash(.height(height))
        } catch ProviderError.notFound {
            return []
        }
        let body = try await rpc.rest("headers/\(start).json?count=\(count)", what: "\(count) headers from \(height)")
        return try ProviderHTTP.json(body, provider: id).array().map(decoder.header)
    }

    private func rpcHeaders(from height: Int, count: Int) async throws -> [BlockHeader] {
        let what = "\(count) headers from \(height)"
        let hashes = try await rpc.batch(
            (height..<height + count).map { ("getblockhash", [JSONValue.number("\($0)")]) },
            what: what
        )
        var known: [JSONValue] = []
        collect: for reply in hashes {
            switch reply {
            case .success(let node): known.append(.string(try decoder.hash(node)))
            // -8: past the tip; the heights above it are past it too.
            case .failure(let failure) where failure.code == -8: break collect
            case .failure(let failure): throw rpc.error(failure, what: what)
            }
        }
        let replies = try await rpc.batch(known.map { ("getblockheader", [$0]) }, what: what)
        return try replies.map { reply in
            switch reply {
            case .success(let node): return try decoder.header(node)
            case .failure(let failure): throw rpc.error(failure, what: what)
            }
        }
    }
}

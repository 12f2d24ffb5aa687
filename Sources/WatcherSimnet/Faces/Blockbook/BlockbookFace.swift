import WatcherCore

/// Blockbook REST v2 under `/api/`.
enum BlockbookFace: SimnetFace {
    static let family = ProviderFamily.blockbook

    static func owns(_ path: String) -> Bool { path == "/api" || path.hasPrefix("/api/") }

    /// Unmatched Blockbook paths count as `/api/` (the status handler).
    static func endpoint(of path: String, segments: [Substring]) -> String? {
        guard segments.first == "api" else { return nil }
        let known = ["block-index", "block", "address", "xpub", "tx", "tickers", "estimatefee"]
        if segments.count >= 3, segments[1] == "v2", known.contains(String(segments[2])) {
            return "/api/v2/\(segments[2])"
        }
        return "/api/"
    }

    static func reply(path: String, query: [String: Substring], world: SimnetWorld.State, now: Double) -> SimReply {
        var renderer = BlockbookRenderer(chain: world.chain, now: now)
        renderer.hidden = world.hidden
        if path == "/api" { return redirect(to: "/api/", query: query) }
        if let height = path.suffix(after: "/api/v2/block-index/") { return renderer.blockIndex(height) }
        if let id = path.suffix(after: "/api/v2/block/") { return renderer.block(id, page: query.int("page")) }
        if let txid = path.suffix(after: "/api/v2/tx/") {
            return renderer.transaction(txid, spending: query["spending"] == "true")
        }
        if let address = path.suffix(after: "/api/v2/address/") {
            return renderer.address(
                address,
                details: .init(parameter: query["details"]),
                page: query.int("page"),
                pageSize: query.int("pageSize")
            )
        }
        if let xpub = path.suffix(after: "/api/v2/xpub/") {
            let query = BlockbookRenderer.XpubQuery(
                details: .init(parameter: query["details"]),
                tokens: .init(parameter: query["tokens"]),
                gap: query.int("gap"),
                page: query.int("page"),
                pageSize: query.int("pageSize"),
                from: query.int("from"),
                to: query.int("to")
            )
            return renderer.xpub(xpub, query: query)
        }
        if let blocks = path.suffix(after: "/api/v2/estimatefee/") {
            return BlockbookRenderer.estimateFee(blocks, satPerVB: world.feeRate)
        }
        if path == "/api/v2/tickers/" {
            return BlockbookRenderer.tickers(prices: world.prices, currency: query["currency"])
        }
        if path == "/api/v2/tickers" { return redirect(to: "/api/v2/tickers/", query: query) }
        // Blockbook serves every other /api path with the status handler.
        return renderer.status()
    }

    static var rateLimited: SimReply { BlockbookRenderer.error("rate limit exceeded", status: 429) }

    static func serverError(status: Int) -> SimReply {
        BlockbookRenderer.error("Internal server error", status: status)
    }

    static var notFound: SimReply { .text("Not Found", status: 404) }

    /// Its status JSON, what it serves for unmatched paths.
    static func wrongShape(world: SimnetWorld.State, now: Double) -> SimReply {
        BlockbookRenderer(chain: world.chain, now: now).status()
    }

    private static func redirect(to location: String, query: [String: Substring]) -> SimReply {
        let queryText = query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        let target = queryText.isEmpty ? location : "\(location)?\(queryText)"
        var reply = SimReply.text("<a href=\"\(target)\">Moved Permanently</a>.", status: 301)
        reply.location = target
        return reply
    }
}

/// Maps a provider request (family, path, query) to a rendered reply. Pure: it reads a snapshot
/// and never mutates state, so it is safe to run for many requests at once.
struct DataRouter: Sendable {
    let world: SimnetEngine.World
    let now: Double

    func reply(family: ProviderFamily, path: String, query: [String: Substring]) -> SimReply {
        switch family {
        case .blockbook: blockbook(path: path, query: query)
        case .rawaddr: rawaddr(path: path, query: query)
        case .coindesk: coindesk(path: path)
        case .coinbase: coinbase(path: path)
        // The node face reads the body and answers in SimnetResponder; nothing reaches here.
        case .bitcoind: FamilyErrors.notFound(.bitcoind)
        // The Electrum face is TCP, not HTTP.
        case .electrum: FamilyErrors.notFound(.electrum)
        }
    }

    private func blockbook(path: String, query: [String: Substring]) -> SimReply {
        var renderer = BlockbookRenderer(chain: world.chain, now: now)
        renderer.hidden = world.hidden
        if path == "/api" { return Self.redirect(to: "/api/", query: query) }
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
        if path == "/api/v2/tickers/" {
            return BlockbookRenderer.tickers(prices: world.prices, currency: query["currency"])
        }
        if path == "/api/v2/tickers" { return Self.redirect(to: "/api/v2/tickers/", query: query) }
        // Blockbook serves every other /api path with the status handler.
        return renderer.status()
    }

    private func rawaddr(path: String, query: [String: Substring]) -> SimReply {
        let renderer = RawAddrRenderer(chain: world.chain)
        if let address = path.suffix(after: "/rawaddr/") {
            return renderer.rawaddr(address, limit: query.int("limit"), offset: query.int("offset"))
        }
        switch path {
        case "/rawaddr", "/rawaddr/": return RawAddrRenderer.invalidAddress
        case "/multiaddr", "/multiaddr/":
            return renderer.multiaddr(active: query["active"], n: query.int("n"), offset: query.int("offset"))
        case "/latestblock", "/latestblock/": return renderer.latestBlock()
        default: return FamilyErrors.notFound(.rawaddr)
        }
    }

    private func coindesk(path: String) -> SimReply {
        let renderer = PriceRenderer(prices: world.prices)
        if path == "/v1/bpi/currentprice.json" { return renderer.coinDesk(code: nil) }
        if let file = path.suffix(after: "/v1/bpi/currentprice/"), file.hasSuffix(".json"), file.count > 5 {
            return renderer.coinDesk(code: file.dropLast(5))
        }
        return FamilyErrors.notFound(.coindesk)
    }

    private func coinbase(path: String) -> SimReply {
        guard let rest = path.suffix(after: "/v2/prices/"), rest.hasSuffix("/spot") else {
            return FamilyErrors.notFound(.coinbase)
        }
        return PriceRenderer(prices: world.prices).coinbaseSpot(pair: rest.dropLast(5))
    }

    private static func redirect(to location: String, query: [String: Substring]) -> SimReply {
        let queryText = query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        let target = queryText.isEmpty ? location : "\(location)?\(queryText)"
        var reply = SimReply.text("<a href=\"\(target)\">Moved Permanently</a>.", status: 301)
        reply.location = target
        return reply
    }
}

extension String {
    /// The rest of the string after `prefix`, `nil` if it does not start with it.
    fileprivate func suffix(after prefix: String) -> Substring? {
        hasPrefix(prefix) ? self[index(startIndex, offsetBy: prefix.count)...] : nil
    }
}

extension [String: Substring] {
    /// An integer query parameter; `nil` when absent or not a number.
    fileprivate func int(_ key: String) -> Int? {
        self[key].flatMap { Int($0) }
    }
}

import WatcherJSON

/// blockchain.info-style `/rawaddr`, `/multiaddr`, `/latestblock`.
enum RawAddrFace: SimnetFace {
    static let family = ProviderFamily.rawaddr

    static func owns(_ path: String) -> Bool {
        path.hasPrefix("/rawaddr") || path.hasPrefix("/multiaddr") || path.hasPrefix("/latestblock")
    }

    static func endpoint(of path: String, segments: [Substring]) -> String? {
        switch segments.first {
        case "rawaddr": "/rawaddr"
        case "multiaddr": "/multiaddr"
        case "latestblock": "/latestblock"
        default: nil
        }
    }

    static func reply(path: String, query: [String: Substring], world: SimnetWorld.State, now: Double) -> SimReply {
        let renderer = RawAddrRenderer(chain: world.chain)
        if let address = path.suffix(after: "/rawaddr/") {
            return renderer.rawaddr(address, limit: query.int("limit"), offset: query.int("offset"))
        }
        switch path {
        case "/rawaddr", "/rawaddr/": return RawAddrRenderer.invalidAddress
        case "/multiaddr", "/multiaddr/":
            return renderer.multiaddr(active: query["active"], n: query.int("n"), offset: query.int("offset"))
        case "/latestblock", "/latestblock/": return renderer.latestBlock()
        default: return notFound
        }
    }

    static var rateLimited: SimReply { .text("Rate limited", status: 429) }

    static func serverError(status: Int) -> SimReply { .text("Internal Server Error", status: status) }

    static var notFound: SimReply { .text("Not Found", status: 404) }

    /// The haskoin error object.
    static func wrongShape(world: SimnetWorld.State, now: Double) -> SimReply {
        .json(
            .object([
                .init("error", .string("not-found-or-invalid-arg")),
                .init("message", .string("Item not found or argument invalid")),
            ])
        )
    }
}

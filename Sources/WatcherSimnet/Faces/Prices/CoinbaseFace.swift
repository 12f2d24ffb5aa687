import WatcherJSON

/// Coinbase spot prices under `/v2/prices/`.
enum CoinbaseFace: SimnetFace {
    static let family = ProviderFamily.coinbase

    static func owns(_ path: String) -> Bool { path.hasPrefix("/v2/prices/") }

    static func endpoint(of path: String, segments: [Substring]) -> String? {
        segments.first == "v2" ? "/v2/prices/spot" : nil
    }

    static func reply(path: String, query: [String: Substring], world: SimnetWorld.State, now: Double) -> SimReply {
        guard let rest = path.suffix(after: "/v2/prices/"), rest.hasSuffix("/spot") else { return notFound }
        return PriceRenderer(prices: world.prices).coinbaseSpot(pair: rest.dropLast(5))
    }

    static var rateLimited: SimReply {
        PriceRenderer.coinbaseError(id: "rate_limit_exceeded", message: "Too many requests", status: 429)
    }

    static func serverError(status: Int) -> SimReply {
        PriceRenderer.coinbaseError(id: "internal_server_error", message: "Internal server error", status: status)
    }

    static var notFound: SimReply { PriceRenderer.coinbaseError(id: "not_found", message: "Not found", status: 404) }

    /// A body whose `data` is an array.
    static func wrongShape(world: SimnetWorld.State, now: Double) -> SimReply {
        .json(.object([.init("data", .array([]))]))
    }
}

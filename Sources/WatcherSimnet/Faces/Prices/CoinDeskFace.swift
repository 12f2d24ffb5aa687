import WatcherJSON

/// CoinDesk BPI v1 under `/v1/bpi/`.
enum CoinDeskFace: SimnetFace {
    static let family = ProviderFamily.coindesk

    static func owns(_ path: String) -> Bool { path.hasPrefix("/v1/bpi/") }

    static func endpoint(of path: String, segments: [Substring]) -> String? {
        segments.first == "v1" ? "/v1/bpi/currentprice" : nil
    }

    static func reply(path: String, query: [String: Substring], world: SimnetWorld.State, now: Double) -> SimReply {
        let renderer = PriceRenderer(prices: world.prices)
        if path == "/v1/bpi/currentprice.json" { return renderer.coinDesk(code: nil) }
        if let file = path.suffix(after: "/v1/bpi/currentprice/"), file.hasSuffix(".json"), file.count > 5 {
            return renderer.coinDesk(code: file.dropLast(5))
        }
        return notFound
    }

    static var rateLimited: SimReply { .text("Rate limit exceeded", status: 429) }

    static func serverError(status: Int) -> SimReply { .text("No results returned from database", status: status) }

    static var notFound: SimReply { .text("Not Found", status: 404) }

    /// The supported-currencies array.
    static func wrongShape(world: SimnetWorld.State, now: Double) -> SimReply {
        .json(
            .array([
                .object([.init("currency", .string("USD")), .init("country", .string("United States Dollar"))])
            ])
        )
    }
}

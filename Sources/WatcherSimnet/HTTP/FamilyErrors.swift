import WatcherCore
import WatcherJSON

/// Each provider family's own error answers, as the real services send them.
enum FamilyErrors {
    /// Over the rate limit: 429 with the family's body (the caller adds `Retry-After`).
    static func rateLimited(_ family: ProviderFamily) -> SimReply {
        switch family {
        case .blockbook: BlockbookRenderer.error("rate limit exceeded", status: 429)
        case .rawaddr: .text("Rate limited", status: 429)
        case .coindesk: .text("Rate limit exceeded", status: 429)
        case .coinbase:
            PriceRenderer.coinbaseError(id: "rate_limit_exceeded", message: "Too many requests", status: 429)
        case .bitcoind, .electrum: .text("Too Many Requests", status: 429)
        }
    }

    /// A server error with `status` (5xx).
    static func serverError(_ family: ProviderFamily, status: Int) -> SimReply {
        switch family {
        case .blockbook: BlockbookRenderer.error("Internal server error", status: status)
        case .rawaddr: .text("Internal Server Error", status: status)
        case .coindesk: .text("No results returned from database", status: status)
        case .coinbase:
            PriceRenderer.coinbaseError(id: "internal_server_error", message: "Internal server error", status: status)
        case .bitcoind where status == 503: workQueueFull
        case .bitcoind, .electrum:
            SimReply(
                status: status,
                contentType: "application/json",
                body: Array(#"{"result":null,"error":{"code":-32603,"message":"Internal error"},"id":null}"#.utf8) + [
                    10
                ]
            )
        }
    }

    /// An unknown path inside a family's URL space.
    static func notFound(_ family: ProviderFamily) -> SimReply {
        switch family {
        case .blockbook, .rawaddr, .coindesk: .text("Not Found", status: 404)
        case .bitcoind, .electrum: SimReply(status: 404, contentType: "text/html; charset=ISO-8859-1", body: [])
        case .coinbase: PriceRenderer.coinbaseError(id: "not_found", message: "Not found", status: 404)
        }
    }

    /// Valid JSON of the wrong shape for the family: Blockbook's status JSON (what it serves for
    /// unmatched paths), blockchain.info's haskoin error object, CoinDesk's supported-currencies
    /// array, and a Coinbase body whose `data` is an array.
    static func wrongShape(_ family: ProviderFamily, world: SimnetEngine.World, now: Double) -> SimReply {
        switch family {
        case .blockbook:
            return BlockbookRenderer(chain: world.chain, now: now).status()
        case .rawaddr:
            return .json(
                .object([
                    .init("error", .string("not-found-or-invalid-arg")),
                    .init("message", .string("Item not found or argument invalid")),
                ])
            )
        case .coindesk:
            return .json(
                .array([
                    .object([.init("currency", .string("USD")), .init("country", .string("United States Dollar"))])
                ])
            )
        case .coinbase:
            return .json(.object([.init("data", .array([]))]))
        case .bitcoind, .electrum:
            return .json(.object([.init("result", .array([])), .init("error", .null), .init("id", .null)]))
        }
    }

    /// Bitcoin Core's answer when its HTTP work queue is full: 503 with a plain-text body, not JSON.
    static let workQueueFull = SimReply.text("Work queue depth exceeded", status: 503)

    /// A body that is not JSON at all: an nginx-style HTML error page.
    static let malformedBody = Array(
        ("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
            + "<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n").utf8
    )
}

import WatcherJSON

/// Bitcoin Core: JSON-RPC at `POST /` and REST under `/rest/`. Its requests carry a body and credentials, so the
/// responder answers them itself (``SimnetResponder``'s node path); this face gives its paths and its errors.
enum NodeFace: SimnetFace {
    static let family = ProviderFamily.bitcoind

    static func owns(_ path: String) -> Bool { path == "/" || path.hasPrefix("/rest/") }

    static func endpoint(of path: String, segments: [Substring]) -> String? {
        segments.first == "rest" ? NodeREST.endpoint(path) : nil
    }

    /// Never reached: the responder answers the node's requests.
    static func reply(path: String, query: [String: Substring], world: SimnetWorld.State, now: Double) -> SimReply {
        notFound
    }

    static var rateLimited: SimReply { .text("Too Many Requests", status: 429) }

    /// Core's answer when its HTTP work queue is full: 503 with a plain-text body, not JSON.
    static let workQueueFull = SimReply.text("Work queue depth exceeded", status: 503)

    static func serverError(status: Int) -> SimReply {
        status == 503 ? workQueueFull : jsonRPCInternalError(status: status)
    }

    static var notFound: SimReply { SimReply(status: 404, contentType: "text/html; charset=ISO-8859-1", body: []) }

    static func wrongShape(world: SimnetWorld.State, now: Double) -> SimReply { jsonRPCWrongShape }

    /// A JSON-RPC internal error with `status`.
    static func jsonRPCInternalError(status: Int) -> SimReply {
        SimReply(
            status: status,
            contentType: "application/json",
            body: Array(#"{"result":null,"error":{"code":-32603,"message":"Internal error"},"id":null}"#.utf8) + [10]
        )
    }

    /// A JSON-RPC envelope whose result is of the wrong shape.
    static var jsonRPCWrongShape: SimReply {
        .json(.object([.init("result", .array([])), .init("error", .null), .init("id", .null)]))
    }
}

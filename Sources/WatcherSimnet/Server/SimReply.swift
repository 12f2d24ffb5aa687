import WatcherCore
import WatcherJSON

/// A rendered HTTP answer, independent of the server framework: status, content type, body and
/// extra headers. Renderers produce these; the responder turns them into Hummingbird responses.
struct SimReply: Sendable {
    /// The HTTP status code.
    var status: Int
    /// The `Content-Type` header.
    var contentType: String
    /// The body bytes.
    var body: [UInt8]
    /// The `Retry-After` header (seconds) of a 429.
    var retryAfter: Int?
    /// The `Location` header of a redirect.
    var location: String?
    /// The `WWW-Authenticate` header of a 401.
    var wwwAuthenticate: String?

    /// The `Content-Type` of JSON answers, as Blockbook and blockchain.info send it.
    static let jsonType = "application/json; charset=utf-8"

    /// Creates a reply.
    init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// A JSON reply.
    static func json(_ value: JSONValue, status: Int = 200) -> SimReply {
        SimReply(status: status, contentType: jsonType, body: value.bytes)
    }

    /// A plain-text reply (no trailing newline, like the real error bodies).
    static func text(_ text: String, status: Int) -> SimReply {
        SimReply(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }
}

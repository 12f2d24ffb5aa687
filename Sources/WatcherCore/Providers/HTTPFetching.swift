import HTTPTypes

/// An HTTP request as adapters describe it, in swift-http-types' vocabulary (`HTTPRequest.Method`, `HTTPFields`).
/// The transport enforces the whole-request budget and the body cap.
public struct HTTPRequestSpec: Sendable {
    /// The method, e.g. `.get` or `.post`.
    public var method: HTTPRequest.Method
    /// The absolute URL.
    public var url: String
    /// Extra header fields (the transport adds `User-Agent`).
    public var headerFields: HTTPFields
    /// The request body.
    public var body: [UInt8]?
    /// Time for the whole exchange, body included.
    public var budget: Duration
    /// The largest response body accepted.
    public var maxBodyBytes: Int
    /// Whether a 3xx with a `Location` is followed (up to 3 times, as a `GET` after 301, 302 and 303). Webhook
    /// deliveries set it to `false`: Standard Webhooks treats a redirect as a failed attempt.
    public var followRedirects: Bool

    /// Creates a request.
    public init(
        method: HTTPRequest.Method = .get,
        url: String,
        headerFields: HTTPFields = [:],
        body: [UInt8]? = nil,
        budget: Duration = .seconds(15),
        maxBodyBytes: Int = 8 << 20,
        followRedirects: Bool = true
    ) {
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.body = body
        self.budget = budget
        self.maxBodyBytes = maxBodyBytes
        self.followRedirects = followRedirects
    }
}

/// A complete HTTP response: swift-http-types' status and fields, and the whole body.
public struct HTTPResponseData: Sendable {
    /// The status; it compares with integer literals (`response.status == 429`), and `status.kind` classifies it.
    public var status: HTTPResponse.Status
    /// Response header fields; look one up with `headerFields[.retryAfter]` (names compare case-insensitively).
    public var headerFields: HTTPFields
    /// The body, at most the request's cap.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: [UInt8]) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }
}

/// Why a fetch produced no response.
public enum HTTPFetchError: Error, Sendable, Equatable {
    /// The whole-request budget ran out.
    case timeout(Duration)
    /// The body was larger than the cap.
    case tooLarge(limit: Int)
    /// Connection-level failure.
    case transport(String)
}

/// The HTTP transport every provider and webhook uses: one shared AsyncHTTPClient in the daemon
/// (`WatcherHTTP.HTTPTransport`).
public protocol HTTPFetching: Sendable {
    /// Performs the request.
    /// - Throws: ``HTTPFetchError``.
    func fetch(_ request: HTTPRequestSpec) async throws -> HTTPResponseData
}

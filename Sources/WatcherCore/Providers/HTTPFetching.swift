/// An HTTP request as adapters describe it. The transport enforces the whole-request budget and the body cap.
public struct HTTPRequestSpec: Sendable {
    /// `GET` or `POST`.
    public var method: String
    /// The absolute URL.
    public var url: String
    /// Extra headers (the transport adds `User-Agent`).
    public var headers: [(name: String, value: String)]
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
        method: String = "GET",
        url: String,
        headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil,
        budget: Duration = .seconds(15),
        maxBodyBytes: Int = 8 << 20,
        followRedirects: Bool = true
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.budget = budget
        self.maxBodyBytes = maxBodyBytes
        self.followRedirects = followRedirects
    }
}

/// A complete HTTP response.
public struct HTTPResponseData: Sendable {
    /// The status code.
    public var status: Int
    /// Response headers.
    public var headers: [(name: String, value: String)]
    /// The body, at most the request's cap.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
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

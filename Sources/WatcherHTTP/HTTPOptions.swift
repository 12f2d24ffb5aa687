import HTTPTypes
import WatcherCore

/// The HTTP options every HTTP-based provider shares: time budget, body cap and extra headers.
public struct HTTPOptions: Sendable, SecretBearing {
    /// Time for one whole request, body included.
    public var timeout: Duration
    /// The largest response body accepted.
    public var maxBodyBytes: Int
    /// Extra header fields, e.g. an API key from `${ENV}`.
    public var headerFields: HTTPFields

    /// Creates options directly (tests and custom builds).
    public init(
        timeout: Duration = .seconds(15),
        maxBodyBytes: Int = 8 << 20,
        headerFields: HTTPFields = [:]
    ) {
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.headerFields = headerFields
    }

    /// Reads `timeout`, `maxBodyBytes` and `headers` from a plugin's options, with the adapter's defaults.
    public init(from reader: ObjectReader, timeout: Duration = .seconds(15), maxBodyBytes: Int = 8 << 20) {
        self.timeout =
            reader.duration(
                "timeout",
                default: timeout,
                minimum: .milliseconds(100),
                doc: "Whole-request time budget, body included."
            )
        self.maxBodyBytes =
            reader.int(
                "maxBodyBytes",
                default: maxBodyBytes,
                range: 1024...(256 << 20),
                doc: "Largest response body accepted, in bytes."
            )
        self.headerFields = reader.headerFields("headers", doc: "Extra request headers, e.g. an API key from ${ENV}.")
    }

    /// A request with these options applied.
    public func request(_ url: String) -> HTTPRequestSpec {
        HTTPRequestSpec(url: url, headerFields: headerFields, budget: timeout, maxBodyBytes: maxBodyBytes)
    }
}

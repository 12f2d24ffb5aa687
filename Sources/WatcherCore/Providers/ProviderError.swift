/// The one error set of every adapter. Each case names the provider id. No adapter crashes on a response.
public enum ProviderError: Error, CustomStringConvertible, Sendable, Equatable {
    /// 429 or a rate-limit body; `retryAfter` from the `Retry-After` header when given.
    case rateLimited(provider: String, retryAfter: Duration?)
    /// 5xx, or a service that says it is not usable (e.g. still syncing).
    case unavailable(provider: String, status: Int?, detail: String?)
    /// The thing asked for does not exist (unknown block or tx).
    case notFound(provider: String, what: String)
    /// The provider rejected the request as invalid (e.g. an address it cannot parse).
    case badRequest(provider: String, detail: String)
    /// Malformed, truncated, oversized or wrong-shaped response.
    case invalidResponse(provider: String, detail: String)
    /// The whole-request time budget ran out.
    case timeout(provider: String, after: Duration)
    /// Connection-level failure.
    case transport(provider: String, detail: String)
    /// The adapter cannot do this.
    case unsupported(provider: String, operation: String)

    /// The provider id.
    public var provider: String {
        switch self {
        case .rateLimited(let p, _), .unavailable(let p, _, _), .notFound(let p, _), .badRequest(let p, _),
            .invalidResponse(let p, _), .timeout(let p, _), .transport(let p, _), .unsupported(let p, _):
            p
        }
    }

    public var description: String {
        switch self {
        case .rateLimited(let p, let after):
            "provider \(p): rate limited" + (after.map { ", retry after \($0.configText)" } ?? "")
        case .unavailable(let p, let status, let detail):
            "provider \(p): unavailable" + (status.map { " (HTTP \($0))" } ?? "") + (detail.map { ": \($0)" } ?? "")
        case .notFound(let p, let what): "provider \(p): \(what) not found"
        case .badRequest(let p, let detail): "provider \(p): request rejected: \(detail)"
        case .invalidResponse(let p, let detail): "provider \(p): invalid response: \(detail)"
        case .timeout(let p, let after): "provider \(p): no complete answer within \(after.configText)"
        case .transport(let p, let detail): "provider \(p): connection failed: \(detail)"
        case .unsupported(let p, let op): "provider \(p): does not support \(op)"
        }
    }
}

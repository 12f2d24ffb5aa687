extension ProviderError {
    /// What went wrong without the details (a response body or a connection error may name a host, a path or a
    /// query with a key): what the status server and the web UI show. The log keeps ``description``.
    public var summary: String {
        switch self {
        case .rateLimited: "provider \(provider): rate limited"
        case .unavailable(_, let status, _): "provider \(provider): unavailable\(status.map { " (HTTP \($0))" } ?? "")"
        case .notFound(_, let what): "provider \(provider): \(what) not found"
        case .badRequest: "provider \(provider): request rejected"
        case .invalidResponse: "provider \(provider): invalid response"
        case .timeout(_, let after): "provider \(provider): no complete answer within \(after.configText)"
        case .transport: "provider \(provider): connection failed"
        case .unsupported(_, let operation): "provider \(provider): does not support \(operation)"
        }
    }
}

import Synchronization
import WatcherCore

/// An ``HTTPFetching`` wrapper for contract runs: it tightens each request's time budget and body cap to at
/// most the given limits (whatever the adapter's options say) and counts the requests that pass through.
public final class ClampedFetcher: HTTPFetching {
    /// The wrapped transport.
    public let base: any HTTPFetching
    /// The longest budget a request may have.
    public let maxBudget: Duration?
    /// The largest body cap a request may have.
    public let maxBodyBytes: Int?
    private let requests = Mutex<[String]>([])

    /// Wraps `base`.
    public init(_ base: any HTTPFetching, maxBudget: Duration? = nil, maxBodyBytes: Int? = nil) {
        self.base = base
        self.maxBudget = maxBudget
        self.maxBodyBytes = maxBodyBytes
    }

    public func fetch(_ request: HTTPRequestSpec) async throws -> HTTPResponseData {
        var request = request
        if let maxBudget { request.budget = min(request.budget, maxBudget) }
        if let maxBodyBytes { request.maxBodyBytes = min(request.maxBodyBytes, maxBodyBytes) }
        requests.withLock { $0.append(request.url) }
        return try await base.fetch(request)
    }

    /// The URLs requested so far, in order.
    public var requestedURLs: [String] { requests.withLock { $0 } }
}

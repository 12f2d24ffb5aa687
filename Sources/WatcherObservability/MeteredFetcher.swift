import Foundation
import HTTPTypes
import WatcherCore

/// An ``HTTPFetching`` that counts and times every exchange of one provider or sink, by endpoint family and
/// outcome (``WatcherMetrics/httpRequest(role:_:endpoint:outcome:duration:)``).
public struct MeteredFetcher: HTTPFetching {
    let base: any HTTPFetching
    let role: String
    let id: String
    let metrics: WatcherMetrics
    let time: TimeSource

    /// Wraps `base` for the provider (`role` `provider`) or sink (`role` `sink`) `id`, timing on `time`.
    public init(_ base: any HTTPFetching, role: String, id: String, metrics: WatcherMetrics, time: TimeSource) {
        self.base = base
        self.role = role
        self.id = id
        self.metrics = metrics
        self.time = time
    }

    public func fetch(_ request: HTTPRequestSpec) async throws -> HTTPResponseData {
        let start = time.elapsed
        let endpoint = Self.endpoint(of: request.url)
        do {
            let response = try await base.fetch(request)
            metrics.httpRequest(
                role: role,
                id,
                endpoint: endpoint,
                outcome: Self.outcome(status: response.status),
                duration: time.elapsed - start
            )
            return response
        } catch {
            let outcome: String =
                switch error as? HTTPFetchError {
                case .timeout?: "timeout"
                case .tooLarge?: "too_large"
                default: "transport"
                }
            metrics.httpRequest(
                role: role,
                id,
                endpoint: endpoint,
                outcome: outcome,
                duration: time.elapsed - start
            )
            throw error
        }
    }

    /// `ok` for 2xx, `429`, or the status class (`3xx`, `4xx`, `5xx`).
    static func outcome(status: HTTPResponse.Status) -> String {
        switch (status.kind, status.code) {
        case (.successful, _): "ok"
        case (_, 429): "429"
        default: "\(status.code / 100)xx"
        }
    }

    /// The URL's path with every part that names a thing (a height, a hash, an address, a txid) replaced by `:id`,
    /// so that the label has a handful of values per provider: `/api/v2/address/:id`, `/rawaddr/:id`.
    public static func endpoint(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        let path = rest[slash...].prefix { $0 != "?" && $0 != "#" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map { part -> Substring in
            let isNumber = !part.isEmpty && part.allSatisfy(\.isNumber)
            let isName = part.count >= 20 && part.allSatisfy { $0.isLetter || $0.isNumber }
            return isNumber || isName ? ":id" : part
        }
        return parts.joined(separator: "/")
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus
import WatcherCore
import WatcherJSON
import WatcherObservability
import WatcherStorage

/// The status server's handlers.
struct StatusRoutes: Sendable {
    let sources: StatusServer.Sources
    let writes: WriteGuard
    let streamLimits: EventBroadcaster.Limits

    func add(to router: Router<StatusRequestContext>) {
        router.get("healthz") { _, _ in self.health() }
        router.head("healthz") { _, _ in self.health() }
        MethodGuard.allow(["healthz"], [.get, .head]).add(to: router)
        router.get("metrics") { _, _ in self.metrics() }
        MethodGuard.allow(["metrics"], [.get]).add(to: router)
        let data = StatusData(sources: sources)
        let stream = EventBroadcaster(data: data, limits: streamLimits)
        APIRoutes(data: data, writes: writes, stream: stream).add(to: router)
        WebRoutes(data: data).add(to: router)
    }

    /// 200 when every provider is reachable and in sync and the store's last writes committed; 503 with the reasons
    /// otherwise.
    func health() -> Response {
        let entries = sources.board.snapshot()
        var reasons: [JSONValue.Member] = []
        for (provider, entry) in entries.sorted(by: { $0.key < $1.key }) where !entry.isHealthy {
            let why = [entry.reachabilityReason, entry.syncReason].compactMap { $0 }.joined(separator: "; ")
            reasons.append(.init(provider, .string(why.isEmpty ? "unhealthy" : why)))
        }
        let failures = sources.store.health.failures
        if !failures.isEmpty {
            let why = failures.map { failure in
                "\(failure.operation.rawValue) writes fail (\(failure.count) in a row since "
                    + "\(ISO8601Time.string(failure.since))): \(failure.error)"
            }
            reasons.append(.init("store", .string(why.joined(separator: "; "))))
        }
        let healthy = reasons.isEmpty
        return APIRoutes.json(
            .object(
                [
                    .init("status", .string(healthy ? "ok" : "degraded")),
                    .init(
                        "providers",
                        .object(entries.keys.sorted().map { .init($0, .bool(entries[$0]?.isHealthy ?? false)) })
                    ),
                    .init("store", .bool(failures.isEmpty)),
                    .init("reasons", .object(reasons)),
                ] + (sources.lastReload?().map { [.init("reload", $0)] } ?? [])
            ),
            status: healthy ? .ok : .serviceUnavailable
        )
    }

    func metrics() -> Response {
        sources.beforeScrape()
        var buffer: [UInt8] = []
        sources.registry.emit(into: &buffer)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: buffer))
        )
    }
}

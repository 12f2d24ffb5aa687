import CoreMetrics

/// The metrics `watcher` emits, through an injected swift-metrics factory (Prometheus in `watcher run`, a no-op
/// by default), so tests and several instances in one process never share a global.
public struct WatcherMetrics: Sendable {
    let factory: any MetricsFactory

    /// Emits through `factory`.
    public init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Emits nothing.
    public static let none = WatcherMetrics(factory: NOOPMetricsHandler.instance)

    /// A provider request finished with `status` (`ok`, `rate_limited`, `failed`, `rejected`, `cancelled`).
    public func providerRequest(_ provider: String, status: String) {
        Counter(
            label: "watcher_provider_requests_total",
            dimensions: [("provider", provider), ("status", status)],
            factory: factory
        ).increment()
        if status == "rate_limited" {
            Counter(label: "watcher_provider_429_total", dimensions: [("provider", provider)], factory: factory)
                .increment()
        }
    }

    /// Time a request waited for its provider's rate limiter.
    public func rateLimiterWait(_ provider: String, _ duration: Duration) {
        Timer(label: "watcher_rate_limiter_wait_seconds", dimensions: [("provider", provider)], factory: factory)
            .recordNanoseconds(
                duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
            )
    }

    /// An event was appended to the log.
    public func eventEmitted(_ type: String) {
        Counter(label: "watcher_events_emitted_total", dimensions: [("type", type)], factory: factory).increment()
    }

    /// A sink delivered, failed or dead-lettered events.
    public func sinkDelivery(_ sink: String, outcome: String, count: Int = 1) {
        Counter(
            label: "watcher_sink_deliveries_total",
            dimensions: [("sink", sink), ("outcome", outcome)],
            factory: factory
        ).increment(by: count)
    }

    /// How many logged events a sink has not passed yet.
    public func sinkLag(_ sink: String, _ lag: Int) {
        Gauge(label: "watcher_sink_lag_events", dimensions: [("sink", sink)], factory: factory).record(lag)
    }
}

import MetricsTestKit
import WatcherCore
import WatcherObservability

extension TestMetrics {
    /// `watcher_sink_deliveries_total` of `sink` with `outcome` (0 when never counted).
    package func sinkEvents(_ sink: String, _ outcome: String) -> Int64 {
        (try? expectCounter("watcher_sink_deliveries_total", [("sink", sink), ("outcome", outcome)]).totalValue) ?? 0
    }

    /// `watcher_sink_failures_total` of `sink`.
    package func sinkFailures(_ sink: String) -> Int64 {
        (try? expectCounter("watcher_sink_failures_total", [("sink", sink)]).totalValue) ?? 0
    }

    /// Where a delivery service or worker under test sends its metrics.
    package var watcher: WatcherMetrics { WatcherMetrics(factory: self) }
}

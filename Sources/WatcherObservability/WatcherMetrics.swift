import CoreMetrics
import WatcherCore

/// The metrics `watcher` emits, through an injected swift-metrics factory (Prometheus in `watcher run`, a no-op
/// by default), so tests and several instances in one process never share a global. Names follow Prometheus
/// conventions; every one is listed in `docs/operations.md`. Labels are bounded: provider, sink, watch and chain
/// ids, event types, endpoint families and outcomes, never an address or a txid.
public struct WatcherMetrics: Sendable {
    let factory: any MetricsFactory

    /// Emits through `factory`.
    public init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Emits nothing.
    public static let none = WatcherMetrics(factory: NOOPMetricsHandler.instance)

    // MARK: Configuration

    /// A reload of the configuration (SIGHUP) ended with `result`: `ok` (applied, or nothing changed) or `failed`
    /// (invalid, or a part could not be built; the daemon runs on).
    public func configReload(_ result: String) {
        Counter(label: "watcher_config_reloads_total", dimensions: [("result", result)], factory: factory).increment()
    }

    // MARK: Providers

    /// A provider operation (one job's request through the scheduler) finished with `status`: `ok`,
    /// `rate_limited`, `rejected`, `unavailable`, `timeout`, `decode_error`, `transport` or `cancelled`.
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

    /// One HTTP exchange of a provider (or, with `role` `sink`, of a webhook sink): its endpoint family, its
    /// outcome (`ok`, `3xx`, `4xx`, `429`, `5xx`, `timeout`, `too_large`, `transport`) and how long it took.
    public func httpRequest(role: String, _ id: String, endpoint: String, outcome: String, duration: Duration) {
        let dimensions = [(role, id), ("endpoint", endpoint), ("outcome", outcome)]
        Counter(label: "watcher_\(role)_http_requests_total", dimensions: dimensions, factory: factory).increment()
        Timer(label: "watcher_\(role)_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// Time a request waited for its provider's rate limiter.
    public func rateLimiterWait(_ provider: String, _ duration: Duration) {
        Timer(label: "watcher_rate_limiter_wait_seconds", dimensions: [("provider", provider)], factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// A provider's rate-limiter state after a change: tokens available now, and the rate in force (the
    /// configured one, or the lower one learned from 429s).
    public func rateLimiter(_ provider: String, tokens: Double, ratePerSecond: Double) {
        Gauge(label: "watcher_rate_limiter_tokens", dimensions: [("provider", provider)], factory: factory)
            .record(tokens)
        Gauge(label: "watcher_rate_limiter_rate_per_second", dimensions: [("provider", provider)], factory: factory)
            .record(ratePerSecond)
    }

    /// A provider's circuit breaker: 0 closed, 1 half-open, 2 open.
    public func circuitState(_ provider: String, _ state: Int) {
        Gauge(label: "watcher_provider_circuit_state", dimensions: [("provider", provider)], factory: factory)
            .record(state)
    }

    /// A provider's tip height as it last answered.
    public func providerTip(_ provider: String, height: Int) {
        Gauge(label: "watcher_provider_tip_height", dimensions: [("provider", provider)], factory: factory)
            .record(height)
    }

    // MARK: Events and sinks

    /// An event was appended to the log.
    public func eventEmitted(_ type: String) {
        Counter(label: "watcher_events_emitted_total", dimensions: [("type", type)], factory: factory).increment()
    }

    /// Events a sink finished with: `delivered`, `dead_lettered`, `skipped` (its filter) or `expired` (trimmed by
    /// retention before it passed them).
    public func sinkEvents(_ sink: String, outcome: String, count: Int = 1) {
        guard count > 0 else { return }
        Counter(
            label: "watcher_sink_deliveries_total",
            dimensions: [("sink", sink), ("outcome", outcome)],
            factory: factory
        ).increment(by: count)
    }

    /// Failed delivery attempts (a non-2xx answer, a timeout, a lost connection).
    public func sinkFailures(_ sink: String, _ count: Int) {
        guard count > 0 else { return }
        Counter(label: "watcher_sink_failures_total", dimensions: [("sink", sink)], factory: factory)
            .increment(by: count)
    }

    /// A delivery attempt of an event that failed before.
    public func sinkRetry(_ sink: String) {
        Counter(label: "watcher_sink_retries_total", dimensions: [("sink", sink)], factory: factory).increment()
    }

    /// How long one delivery call to a sink took (a batch, or one webhook request).
    public func sinkDeliveryDuration(_ sink: String, _ duration: Duration) {
        Timer(label: "watcher_sink_delivery_duration_seconds", dimensions: [("sink", sink)], factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// A write to the store that failed in LMDB (a full disk, an I/O error), by what it was for (`commit`,
    /// `delivery`, `trim`, `dead_letters`, `accounts`, `wallets`, `other`); `count` 0 makes the series exist at 0.
    public func storeErrors(_ operation: String, count: Int = 1) {
        Counter(label: "watcher_store_errors_total", dimensions: [("operation", operation)], factory: factory)
            .increment(by: count)
    }

    /// Log entries removed by trimming.
    public func trimmed(_ count: Int) {
        guard count > 0 else { return }
        Counter(label: "watcher_log_trimmed_events_total", factory: factory).increment(by: count)
    }

    // MARK: Read at scrape time

    /// A sink's lag: log entries it has not passed, and the age of the oldest of them.
    public func sinkLag(_ sink: String, events: Int, seconds: Double) {
        Gauge(label: "watcher_sink_lag_events", dimensions: [("sink", sink)], factory: factory).record(events)
        Gauge(label: "watcher_sink_lag_seconds", dimensions: [("sink", sink)], factory: factory).record(seconds)
    }

    /// Dead letters stored for a sink.
    public func sinkDeadLetters(_ sink: String, _ count: Int) {
        Gauge(label: "watcher_sink_dead_letters", dimensions: [("sink", sink)], factory: factory).record(count)
    }

    /// A chain's stored tip, and the seconds since its block's timestamp.
    public func chainTip(_ chain: String, height: Int, secondsSinceBlock: Double?) {
        Gauge(label: "watcher_chain_tip_height", dimensions: [("chain", chain)], factory: factory).record(height)
        if let secondsSinceBlock {
            Gauge(label: "watcher_chain_seconds_since_last_block", dimensions: [("chain", chain)], factory: factory)
                .record(secondsSinceBlock)
        }
    }

    /// A provider's health (reachable and in sync: 1) and how many blocks its tip is behind the highest one.
    public func providerHealth(_ provider: String, up: Bool, lagBlocks: Int?) {
        Gauge(label: "watcher_provider_up", dimensions: [("provider", provider)], factory: factory).record(up ? 1 : 0)
        if let lagBlocks {
            Gauge(label: "watcher_provider_lag_blocks", dimensions: [("provider", provider)], factory: factory)
                .record(lagBlocks)
        }
    }

    /// Addresses a watch follows (`accounts`: the CLI's).
    public func followedAddresses(_ watch: String, _ count: Int) {
        Gauge(label: "watcher_followed_addresses", dimensions: [("watch", watch)], factory: factory).record(count)
    }

    /// The LMDB map: bytes in use, its current size, and the most it may grow to.
    public func lmdbMap(usedBytes: Int, sizeBytes: Int, maxBytes: Int) {
        Gauge(label: "watcher_lmdb_map_used_bytes", factory: factory).record(usedBytes)
        Gauge(label: "watcher_lmdb_map_size_bytes", factory: factory).record(sizeBytes)
        Gauge(label: "watcher_lmdb_map_max_bytes", factory: factory).record(maxBytes)
    }

    /// The standard process metrics; `cpuDelta` is the CPU time since the last scrape.
    public func process(_ stats: ProcessStats, cpuDelta: Double) {
        Gauge(label: "process_resident_memory_bytes", factory: factory).record(stats.residentBytes)
        Gauge(label: "process_virtual_memory_bytes", factory: factory).record(stats.virtualBytes)
        Gauge(label: "process_open_fds", factory: factory).record(stats.openFDs)
        Gauge(label: "process_max_fds", factory: factory).record(stats.maxFDs)
        Gauge(label: "process_start_time_seconds", factory: factory).record(stats.startTime)
        FloatingPointCounter(label: "process_cpu_seconds_total", factory: factory).increment(by: max(0, cpuDelta))
    }

}

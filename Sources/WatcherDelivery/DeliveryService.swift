import Foundation
import Logging
import ServiceLifecycle
import WatcherConfiguration
import WatcherCore
import WatcherEventLog
import WatcherObservability
import WatcherStorage

/// The delivery half of the transactional outbox: one ``DeliveryWorker`` per sink and a ``LogTrimmer``, run as one
/// `Service`.
///
/// ```swift
/// let delivery = DeliveryService(
///     store: store, signal: signal,
///     routes: zip(config.sinks, sinks).map(DeliveryService.Route.init(config:sink:)),
///     retention: config.storage.eventRetention, logger: logger)
/// // ServiceGroup order: StorageService, HTTPClientService, delivery, engine…
/// ```
///
/// List it after the storage and HTTP services and before the engine, so that at shutdown the engine stops
/// first and the workers finish their deliveries while the store and the HTTP client are still open.
public struct DeliveryService: Service {
    /// One sink and what it receives.
    public struct Route: Sendable {
        /// The sink.
        public var sink: any Sink
        /// The event types it receives.
        public var filter: EventFilter
        /// Overrides the sink's own policy (``ManagedSink/deliveryPolicy``, else ``DeliveryPolicy/local``).
        public var policy: DeliveryPolicy?

        /// Creates a route.
        public init(sink: any Sink, filter: EventFilter = EventFilter(), policy: DeliveryPolicy? = nil) {
            self.sink = sink
            self.filter = filter
            self.policy = policy
        }

        /// The route of a configured sink: the sink built from `config`, receiving the event types `config.events`
        /// names, with its own policy.
        public init(config: SinkConfig, sink: any Sink) {
            self.init(sink: sink, filter: EventFilter(config.events))
        }
    }

    /// Tuning knobs with daemon defaults.
    public struct Options: Sendable {
        /// How often workers look at the log without a wake-up.
        public var pollInterval: Duration
        /// Time between trim passes.
        public var trimInterval: Duration
        /// Entries kept behind the slowest sink, so `watcher events list` shows recent history.
        public var keepDelivered: Int

        /// Creates options.
        public init(
            pollInterval: Duration = .seconds(1),
            trimInterval: Duration = .seconds(60),
            keepDelivered: Int = 1000
        ) {
            self.pollInterval = pollInterval
            self.trimInterval = trimInterval
            self.keepDelivered = keepDelivered
        }
    }

    /// One worker per sink, in route order.
    public let workers: [DeliveryWorker]
    /// The log trimmer.
    public let trimmer: LogTrimmer
    /// Live delivery state (cursors, heads, last errors).
    public let status: DeliveryStatus

    /// Creates the service.
    /// - Parameters:
    ///   - store: the store with the log.
    ///   - signal: the engine's append signal.
    ///   - routes: the sinks and their filters.
    ///   - retention: `storage.eventRetention` (`nil`: never trim by age).
    ///   - logger: the logger.
    ///   - time: what retries wait on and what ages, dead letters and the append-time index are stamped with.
    ///   - options: tuning.
    ///   - metrics: where delivery counters and durations go.
    public init(
        store: Store,
        signal: LogSignal,
        routes: [Route],
        retention: Duration?,
        logger: Logger,
        time: TimeSource,
        options: Options = Options(),
        metrics: WatcherMetrics = .none
    ) {
        let status = DeliveryStatus(sinks: routes.map(\.sink.id))
        self.status = status
        self.workers = routes.map { route in
            DeliveryWorker(
                sink: route.sink,
                filter: route.filter,
                store: store,
                signal: signal,
                status: status,
                metrics: metrics,
                policy: route.policy,
                logger: logger,
                time: time,
                pollInterval: options.pollInterval
            )
        }
        self.trimmer = LogTrimmer(
            store: store,
            sinks: routes.map(\.sink.id),
            retention: retention,
            keep: options.keepDelivered,
            interval: options.trimInterval,
            logger: logger,
            time: time,
            status: status,
            metrics: metrics
        )
    }

    /// The workers and the trimmer as separate services, for a caller that lists them in its own group.
    public var services: [any Service] { workers.map { $0 as any Service } + [trimmer] }

    public func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            for worker in workers { group.addTask { try await worker.run() } }
            group.addTask { try await trimmer.run() }
        }
    }
}

import Foundation
import Synchronization

/// Delivery counters of one sink at one moment.
public struct SinkDeliveryStats: Sendable, Equatable {
    /// The sink id.
    public var sink: String
    /// Its cursor: the last log position delivered, dead-lettered or skipped.
    public var cursor: UInt64 = 0
    /// The newest log position the worker has seen.
    public var head: UInt64 = 0
    /// Events delivered since start.
    public var delivered = 0
    /// Failed attempts since start (each retry counts).
    public var failed = 0
    /// Events dead-lettered since start.
    public var deadLettered = 0
    /// Events skipped by the sink's `events` filter since start.
    public var skipped = 0
    /// Events trimmed by `storage.eventRetention` before this sink passed them, since start.
    public var expired = 0
    /// The last failure, if any.
    public var lastError: String?
    /// Whether an event is waiting for a retry.
    public var retrying = false
    /// Why the sink is disabled (HTTP 410), if it is.
    public var disabled: String?

    /// Log entries the sink has not passed yet (`head - cursor`).
    public var lag: UInt64 { head > cursor ? head - cursor : 0 }

    /// Creates empty stats.
    public init(sink: String) { self.sink = sink }
}

/// Trimming counters.
public struct TrimStats: Sendable, Equatable {
    /// Passes run since start.
    public var passes = 0
    /// Log entries removed since start.
    public var removed = 0
    /// The oldest position still in the log after the last pass.
    public var firstSeq: UInt64?
    /// The last failure, if any.
    public var lastError: String?

    /// Creates empty stats.
    public init() {}
}

/// Live delivery counters, shared by the workers that update them and the status server that reads them.
///
/// ```swift
/// for stats in service.metrics.snapshot() { print(stats.sink, stats.lag, stats.deadLettered) }
/// ```
public final class DeliveryMetrics: Sendable {
    private let sinks: Mutex<[String: SinkDeliveryStats]>
    private let trim = Mutex(TrimStats())
    private let order: [String]

    /// Creates counters for `sinks`.
    public init(sinks: [String]) {
        order = sinks
        self.sinks = Mutex(Dictionary(sinks.map { ($0, SinkDeliveryStats(sink: $0)) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Every sink's counters, in configuration order.
    public func snapshot() -> [SinkDeliveryStats] {
        let current = sinks.withLock { $0 }
        return order.compactMap { current[$0] }
    }

    /// One sink's counters.
    public func stats(sink: String) -> SinkDeliveryStats? { sinks.withLock { $0[sink] } }

    /// Trimming counters.
    public var trimming: TrimStats { trim.withLock { $0 } }

    func update(_ sink: String, _ body: (inout SinkDeliveryStats) -> Void) {
        sinks.withLock { all in
            var stats = all[sink] ?? SinkDeliveryStats(sink: sink)
            body(&stats)
            all[sink] = stats
        }
    }

    func updateTrim(_ body: (inout TrimStats) -> Void) {
        trim.withLock { body(&$0) }
    }
}

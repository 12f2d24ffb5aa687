import Foundation
import Synchronization
import WatcherObservability

/// One sink's delivery state at one moment: where it is and why it is stuck, if it is. Counts (delivered, failed,
/// dead-lettered …) are metrics, emitted through ``WatcherMetrics``; this is the state the worker knows and the
/// status server and tests read.
public struct SinkDeliveryState: Sendable, Equatable {
    /// The sink id.
    public var sink: String
    /// Its cursor: the last log position delivered, dead-lettered or skipped.
    public var cursor: UInt64 = 0
    /// The newest log position the worker has seen.
    public var head: UInt64 = 0
    /// The last failure, if any.
    public var lastError: String?
    /// Whether an event is waiting for a retry.
    public var retrying = false
    /// Why the sink is disabled (HTTP 410), if it is.
    public var disabled: String?

    /// Log entries the sink has not passed yet (`head - cursor`).
    public var lag: UInt64 { head > cursor ? head - cursor : 0 }

    /// Creates an empty state.
    public init(sink: String) { self.sink = sink }
}

/// The trimmer's state.
public struct TrimState: Sendable, Equatable {
    /// The oldest position still in the log after the last pass.
    public var firstSeq: UInt64?
    /// The last failure, if any.
    public var lastError: String?

    /// Creates an empty state.
    public init() {}
}

/// Live delivery state, shared by the workers that update it and whoever reads it.
///
/// ```swift
/// for state in service.status.snapshot() { print(state.sink, state.lag, state.lastError ?? "") }
/// ```
public final class DeliveryStatus: Sendable {
    private let sinks: Mutex<[String: SinkDeliveryState]>
    private let trim = Mutex(TrimState())
    private let order: [String]

    /// Creates the state of `sinks`.
    public init(sinks: [String]) {
        order = sinks
        self.sinks = Mutex(Dictionary(sinks.map { ($0, SinkDeliveryState(sink: $0)) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Every sink's state, in configuration order.
    public func snapshot() -> [SinkDeliveryState] {
        let current = sinks.withLock { $0 }
        return order.compactMap { current[$0] }
    }

    /// One sink's state.
    public func state(sink: String) -> SinkDeliveryState? { sinks.withLock { $0[sink] } }

    /// The trimmer's state.
    public var trimming: TrimState { trim.withLock { $0 } }

    func update(_ sink: String, _ body: (inout SinkDeliveryState) -> Void) {
        sinks.withLock { all in
            var state = all[sink] ?? SinkDeliveryState(sink: sink)
            body(&state)
            all[sink] = state
        }
    }

    func updateTrim(_ body: (inout TrimState) -> Void) {
        trim.withLock { body(&$0) }
    }
}

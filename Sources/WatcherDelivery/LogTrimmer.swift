import Foundation
import Logging
import ServiceLifecycle
import WatcherCore
import WatcherObservability
import WatcherStorage

/// Trims the event log behind the slowest sink and past the retention age, and keeps the append-time index that
/// ages are measured with. Runs a pass at start and then every interval, until graceful shutdown.
public struct LogTrimmer: Service {
    /// What one pass did.
    public struct Result: Sendable, Equatable {
        /// Entries removed.
        public var removed: Int
        /// The oldest position left, `nil` when the log is empty.
        public var firstSeq: UInt64?
        /// The plan it carried out.
        public var plan: TrimPlan
    }

    let store: Store
    let sinks: [String]
    let retention: Duration?
    let keep: Int
    let interval: Duration
    let logger: Logger
    let time: TimeSource
    let status: DeliveryStatus?
    let metrics: WatcherMetrics

    /// Creates a trimmer.
    /// - Parameters:
    ///   - store: the store.
    ///   - sinks: the configured sink ids; only their cursors hold the log back.
    ///   - retention: `storage.eventRetention`; `nil` never trims by age.
    ///   - keep: entries kept behind the slowest sink anyway (for `watcher events list`).
    ///   - interval: time between passes.
    ///   - logger: for what it removed.
    ///   - now: wall-clock time.
    ///   - metrics: where trim counters go.
    public init(
        store: Store,
        sinks: [String],
        retention: Duration?,
        keep: Int = 0,
        interval: Duration = .seconds(60),
        logger: Logger,
        time: TimeSource,
        status: DeliveryStatus? = nil,
        metrics: WatcherMetrics = .none
    ) {
        self.store = store
        self.sinks = sinks
        self.retention = retention
        self.keep = keep
        self.interval = interval
        self.logger = logger
        self.time = time
        self.status = status
        self.metrics = metrics
    }

    public func run() async throws {
        let interval = self.interval
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                try await trimOnce()
            } catch {
                logger.error("cannot trim the event log", metadata: ["error": "\(error)"])
                status?.updateTrim { $0.lastError = "\(error)" }
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
        }
    }

    /// Runs one pass in one write transaction: records an append mark, then trims.
    @discardableResult
    public func trimOnce() async throws -> Result {
        let (sinks, retention, keep, time) = (self.sinks, self.retention, self.keep, self.time.now())
        let result = try await store.write(.trim) { txn in
            let cursors = try txn.cursors()
            let plan = TrimPlan.plan(
                first: try txn.firstEventSeq(),
                last: try txn.lastEventSeq(),
                cursors: sinks.map { cursors[$0] ?? 0 },
                marks: try txn.appendMarks(),
                now: time,
                retention: retention,
                keep: keep
            )
            var removed = 0
            if let before = plan.before {
                removed = try txn.trimEvents(before: before)
                try txn.removeAppendMarks(before: before)
            }
            if let mark = plan.mark { try txn.putAppendMark(mark) }
            return Result(removed: removed, firstSeq: try txn.firstEventSeq(), plan: plan)
        }
        metrics.trimmed(result.removed)
        status?.updateTrim { state in
            state.firstSeq = result.firstSeq
            state.lastError = nil
        }
        if result.removed > 0 {
            logger.debug(
                "trimmed the event log",
                metadata: [
                    "removed": "\(result.removed)", "byAge": "\(result.plan.byAge)",
                    "first": "\(result.firstSeq.map(String.init) ?? "none")",
                ]
            )
        }
        return result
    }
}

import Foundation
import Logging
import WatcherCore
import WatcherJSON
import WatcherStorage

/// Retries a sink's dead letters (`watcher deadletters replay`): once each, oldest first, stopping at the first
/// failure so the order holds. Delivered letters are removed; the failed one keeps its place with one more attempt
/// counted. When every letter went through, a sink disabled by HTTP 410 is enabled again, and a running daemon
/// resumes it from its cursor within a poll interval.
public struct DeadLetterReplayer: Sendable {
    /// What a replay did for one sink.
    public struct Summary: Sendable, Equatable {
        /// The sink id.
        public var sink: String
        /// Letters delivered and removed.
        public var replayed = 0
        /// Letters still dead.
        public var remaining = 0
        /// Whether a disabled sink was enabled again.
        public var reenabled = false
        /// Why the sink is (still or again) disabled, if it is.
        public var disabled: String?
        /// The failure that stopped the replay, if any.
        public var failure: String?
    }

    let store: Store
    let logger: Logger
    let time: TimeSource

    /// Creates a replayer over a writable store.
    public init(store: Store, logger: Logger, time: TimeSource) {
        self.store = store
        self.logger = logger
        self.time = time
    }

    /// Replays `sink`'s dead letters. The caller builds (and afterwards closes) the sink.
    /// - Parameters:
    ///   - sink: the sink, built from the current config.
    ///   - batchSize: letters per delivery call.
    /// - Throws: store errors.
    public func replay(_ sink: any Sink, batchSize: Int = 64) async throws -> Summary {
        let id = sink.id
        let managed = sink as? any ManagedSink
        let letters = try store.read { try $0.deadLetters(sink: id) }
        var summary = Summary(sink: id)
        var index = 0
        while index < letters.count {
            let chunk = Array(letters[index..<min(index + max(1, batchSize), letters.count)])
            let events = chunk.map { letter in
                SinkEvent(seq: letter.seq, id: letter.eventID, type: Self.type(of: letter.body), body: letter.body)
            }
            let report: DeliveryReport
            if let managed {
                report = await managed.deliverReporting(events)
            } else {
                report = DeliveryReport(outcomes: await sink.deliver(events))
            }
            let delivered = min(report.outcomes.prefix { $0 == .delivered }.count, chunk.count)
            var failed: DeadLetter?
            if delivered < chunk.count {
                var letter = chunk[delivered]
                letter.attempts += 1
                letter.lastError = report.disable ?? Self.reason(report.outcomes[safe: delivered])
                failed = letter
            }
            let done = chunk.prefix(delivered).map(\.seq)
            let disable = report.disable.map {
                SinkDisabledRecord(
                    sink: id,
                    reason: $0,
                    destination: managed?.destination ?? id,
                    disabledAt: time.now()
                )
            }
            let retried = failed
            try await store.write(.deadLetters) { txn in
                for seq in done { try txn.removeDeadLetter(sink: id, seq: seq) }
                if let retried { try txn.putDeadLetter(retried) }
                if let disable { try txn.setSinkDisabled(disable) }
            }
            summary.replayed += delivered
            if let failed {
                summary.failure = failed.lastError
                summary.disabled = report.disable
                logger.warning(
                    "replay stopped at a failure",
                    metadata: ["sink": "\(id)", "seq": "\(failed.seq)", "error": "\(failed.lastError)"]
                )
                break
            }
            index += chunk.count
        }
        if summary.failure == nil {
            summary.reenabled = try await store.write(.deadLetters) { try $0.removeSinkDisabled(sink: id) }
            if summary.reenabled {
                logger.notice("sink re-enabled by a successful replay", metadata: ["sink": "\(id)"])
            }
        } else if summary.disabled == nil {
            summary.disabled = try store.read { try $0.sinkDisabled(sink: id) }?.reason
        }
        summary.remaining = try store.read { try $0.deadLetters(sink: id) }.count
        return summary
    }

    /// The envelope's `type`, for sinks that render it.
    static func type(of body: [UInt8]) -> String {
        (try? JSONValue.parse(body))?["type"]?.stringValue ?? ""
    }

    static func reason(_ outcome: DeliveryOutcome?) -> String {
        switch outcome {
        case .retry(_, let reason)?, .reject(let reason)?: reason
        case .delivered?, nil: "the sink returned no outcome"
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

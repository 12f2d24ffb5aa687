import Foundation
import WatcherCore

/// The outbox cursor of one sink as a pure state machine: given the events after its cursor, the time and the
/// sink's outcomes, it decides what to send next, when to retry, when to dead-letter, and where the cursor moves.
/// It does no I/O; ``DeliveryWorker`` reads the log, calls the sink and commits what it returns.
///
/// Delivery is ordered: nothing after a failing event is sent until that event was delivered or dead-lettered.
/// Events whose type the ``EventFilter`` rejects are skipped, and the cursor moves past them.
public struct DeliveryStateMachine: Sendable {
    /// A failed event waiting for its next attempt: its persisted ``SinkRetryRecord`` and when the next attempt
    /// may start (not persisted: after a restart it is due at once).
    public struct PendingRetry: Sendable, Equatable {
        /// What is persisted of it.
        public var record: SinkRetryRecord
        /// When the next attempt may start.
        public var retryAt: Date

        /// Its log position.
        public var seq: UInt64 { record.seq }
        /// Attempts made so far.
        public var attempts: Int { record.attempts }
        /// Where its age counts from: its append time when known, else its first failure.
        public var since: Date { record.since }
        /// The last failure.
        public var lastError: String { record.lastError }
    }

    /// A run of log events to hand to the sink.
    public struct Window: Sendable, Equatable {
        /// The matching events, oldest first (may be empty when every event was filtered out).
        public var events: [SinkEvent]
        /// The last log position the window covers, skipped events included.
        public var through: UInt64
        /// Positions of the events the filter skipped.
        public var skipped: [UInt64]
    }

    /// What to do next.
    public enum Step: Sendable, Equatable {
        /// Nothing after the cursor: wait for a wake-up.
        case idle
        /// The next event waits for its retry time: sleep this long, then plan again.
        case wait(Duration)
        /// Deliver the window's events (none when all were skipped), then ``record(_:for:now:)``.
        case deliver(Window)
    }

    /// What to persist after a delivery, in one write transaction.
    public struct Commit: Sendable, Equatable {
        /// The new cursor, or `nil` when it did not move.
        public var cursor: UInt64?
        /// Events given up on.
        public var deadLetters: [DeadLetter] = []
        /// Set when the sink must be persisted as disabled.
        public var disable: String?
        /// Events delivered.
        public var delivered = 0
        /// Events skipped by the filter that the cursor passed.
        public var skipped = 0
        /// The failure that will be retried, if any.
        public var failure: String?
        /// The delay before that retry.
        public var retryIn: Duration?
        /// The retry state to persist: the pending event after a failure, or `.some(nil)` to forget it once it was
        /// delivered or dead-lettered; `nil` when it did not change.
        public var retry: PendingRetry??

        /// Whether there is anything to write.
        public var needsWrite: Bool { cursor != nil || !deadLetters.isEmpty || disable != nil || retry != nil }
    }

    /// The sink id.
    public let sink: String
    /// The event types it receives.
    public let filter: EventFilter
    /// Its retry policy.
    public let policy: DeliveryPolicy
    /// The last log position delivered, dead-lettered or skipped.
    public private(set) var cursor: UInt64
    /// The failed event waiting for a retry.
    public private(set) var pending: PendingRetry?
    /// Why the sink is disabled, if it is.
    public private(set) var disabled: String?
    private var random: SplitMixRandom
    private var origin: (seq: UInt64, time: Date)?
    /// Whether a retry state is persisted, so that clearing it must be written.
    private var retryPersisted: Bool

    /// Creates the machine at a persisted cursor.
    /// - Parameters:
    ///   - sink: the sink id.
    ///   - cursor: the persisted cursor.
    ///   - filter: the event types to deliver.
    ///   - policy: retries and dead-lettering.
    ///   - disabled: a persisted disable reason.
    ///   - retrying: a persisted retry state: its attempts count on, and its next attempt is due at once.
    ///   - seed: seeds the backoff jitter.
    public init(
        sink: String,
        cursor: UInt64,
        filter: EventFilter,
        policy: DeliveryPolicy,
        disabled: String? = nil,
        retrying: PendingRetry? = nil,
        seed: UInt64 = 0x5EED
    ) {
        self.sink = sink
        self.cursor = cursor
        self.filter = filter
        self.policy = policy
        self.disabled = disabled
        self.pending = retrying.flatMap { $0.seq > cursor ? $0 : nil }
        self.retryPersisted = retrying != nil
        self.random = SplitMixRandom(seed: seed)
    }

    /// Decides the next step from the events read after the cursor.
    /// - Parameters:
    ///   - events: log entries from `cursor + 1` on, oldest first.
    ///   - firstAppendedAt: an upper bound of the first entry's append time, when known.
    ///   - now: the current time.
    public mutating func plan(_ events: [LoggedEvent], firstAppendedAt: Date?, now: Date) -> Step {
        guard disabled == nil else { return .idle }
        let fresh = events.drop { $0.seq <= cursor }
        guard let first = fresh.first else { return .idle }
        if let firstAppendedAt { origin = (first.seq, firstAppendedAt) }
        if let pending {
            if fresh.first(where: { filter.matches($0.type) })?.seq != pending.seq {
                self.pending = nil
            } else if now < pending.retryAt {
                return .wait(.seconds(pending.retryAt.timeIntervalSince(now)))
            }
        }
        var window = Window(events: [], through: cursor, skipped: [])
        for event in fresh {
            if filter.matches(event.type) {
                if window.events.count == policy.batchSize { break }
                window.events.append(event)
            } else {
                window.skipped.append(event.seq)
            }
            window.through = event.seq
        }
        return .deliver(window)
    }

    /// Applies the sink's report for `window` and says what to persist. The machine assumes the commit succeeds;
    /// when it does not, call ``reset(cursor:)`` with the persisted cursor.
    public mutating func record(_ report: DeliveryReport, for window: Window, now: Date) -> Commit {
        var commit = Commit()
        var newCursor = window.through
        for (index, event) in window.events.enumerated() {
            let outcome =
                index < report.outcomes.count
                ? report.outcomes[index] : .retry(after: nil, reason: "the sink returned no outcome")
            if outcome == .delivered {
                commit.delivered += 1
                if pending?.seq == event.seq { pending = nil }
                continue
            }
            newCursor = fail(event, outcome: outcome, disable: report.disable, now: now, into: &commit)
            break
        }
        commit.skipped = window.skipped.lazy.filter { $0 <= newCursor }.count
        if newCursor > cursor {
            cursor = newCursor
            commit.cursor = newCursor
        }
        if let pending, commit.failure != nil {
            commit.retry = .some(pending)
            retryPersisted = true
        } else if pending == nil, retryPersisted {
            commit.retry = .some(nil)
            retryPersisted = false
        }
        return commit
    }

    /// Handles the first event that was not delivered; returns the cursor after it.
    private mutating func fail(
        _ event: SinkEvent,
        outcome: DeliveryOutcome,
        disable: String?,
        now: Date,
        into commit: inout Commit
    ) -> UInt64 {
        let previous = pending?.seq == event.seq ? pending : nil
        let attempts = (previous?.attempts ?? 0) + 1
        let since = previous?.since ?? (origin?.seq == event.seq ? origin?.time : nil) ?? now
        pending = nil
        func deadLetter(_ reason: String) -> UInt64 {
            commit.deadLetters.append(
                DeadLetter(
                    sink: sink,
                    seq: event.seq,
                    eventID: event.id,
                    body: event.body,
                    attempts: attempts,
                    lastError: reason,
                    deadAt: now
                )
            )
            return event.seq
        }
        if let disable {
            disabled = disable
            commit.disable = disable
            return deadLetter(disable)
        }
        switch outcome {
        case .delivered:
            return event.seq
        case .reject(let reason):
            return deadLetter(reason)
        case .retry(let after, let reason):
            let tooOld = policy.maxAge.map { now.timeIntervalSince(since) >= $0.timeInterval } ?? false
            if attempts >= policy.maxAttempts ?? .max || tooOld {
                let limit = tooOld ? "older than maxAge" : "\(attempts) attempts"
                return deadLetter("\(reason) (gave up: \(limit))")
            }
            let backoff = policy.backoff.delay(attempt: attempts - 1, using: &random)
            let delay = after.map { max($0, backoff) } ?? backoff
            pending = PendingRetry(
                record: SinkRetryRecord(
                    sink: sink,
                    seq: event.seq,
                    attempts: attempts,
                    since: since,
                    lastError: reason
                ),
                retryAt: now.addingTimeInterval(delay.timeInterval)
            )
            commit.failure = reason
            commit.retryIn = delay
            return event.seq - 1
        }
    }

    /// Adopts the persisted cursor after a failed commit or an outside change.
    public mutating func reset(cursor: UInt64) {
        self.cursor = cursor
        if let pending, pending.seq <= cursor { self.pending = nil }
    }

    /// Clears a disable (the destination came back through a replay, or changed).
    public mutating func enable() {
        disabled = nil
        pending = nil
    }
}

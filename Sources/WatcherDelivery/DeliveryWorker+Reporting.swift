import Logging
import WatcherCore
import WatcherObservability
import WatcherStorage

extension DeliveryWorker {
    /// Counts (once) the events that retention trimmed before this sink passed them.
    func noteExpired(_ batch: Batch, cursor: UInt64, through expiredThrough: inout UInt64) {
        guard cursor > 0, let first = batch.events.first?.seq ?? (batch.head > cursor ? batch.head + 1 : nil) else {
            return
        }
        let from = max(cursor, expiredThrough) + 1
        guard first > from else { return }
        let lost = first - from
        expiredThrough = first - 1
        metrics.sinkEvents(sink.id, outcome: "expired", count: Int(lost))
        logger.warning(
            "events passed storage.eventRetention before this sink delivered them",
            metadata: ["count": "\(lost)", "from": "\(from)", "through": "\(first - 1)"]
        )
    }

    /// Updates the counters after a commit and logs failures, dead letters and disables.
    func report(_ commit: DeliveryStateMachine.Commit, machine: DeliveryStateMachine) {
        status.update(sink.id) { state in
            if let cursor = commit.cursor { state.cursor = cursor }
            state.retrying = machine.pending != nil
            state.disabled = machine.disabled
            if let error = commit.failure ?? commit.deadLetters.last?.lastError { state.lastError = error }
        }
        metrics.sinkEvents(sink.id, outcome: "delivered", count: commit.delivered)
        metrics.sinkEvents(sink.id, outcome: "skipped", count: commit.skipped)
        metrics.sinkEvents(sink.id, outcome: "dead_lettered", count: commit.deadLetters.count)
        // Every failed attempt: one followed by a retry, or the last one, which dead-lettered its event.
        metrics.sinkFailures(sink.id, (commit.failure != nil ? 1 : 0) + commit.deadLetters.count)
        if let failure = commit.failure, let pending = machine.pending {
            logger.warning(
                "delivery failed; will retry",
                metadata: [
                    "seq": "\(pending.seq)", "attempt": "\(pending.attempts)", "error": "\(failure)",
                    "retryIn": "\(commit.retryIn ?? .zero)",
                ]
            )
        }
        for letter in commit.deadLetters {
            logger.error(
                "event dead-lettered",
                metadata: [
                    "seq": "\(letter.seq)", "event": "\(letter.eventID)", "attempts": "\(letter.attempts)",
                    "error": "\(letter.lastError)",
                ]
            )
        }
        if let reason = commit.disable {
            logger.error(
                "SINK DISABLED: its destination is gone; no more deliveries until `watcher deadletters replay --sink \(sink.id)` succeeds",
                metadata: ["reason": "\(reason)"]
            )
        }
    }
}

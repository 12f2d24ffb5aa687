import Logging
import WatcherCore
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
        metrics.update(sink.id) { $0.expired += Int(lost) }
        logger.warning(
            "events passed storage.eventRetention before this sink delivered them",
            metadata: ["count": "\(lost)", "from": "\(from)", "through": "\(first - 1)"]
        )
    }

    /// Updates the counters after a commit and logs failures, dead letters and disables.
    func report(_ commit: DeliveryStateMachine.Commit, machine: DeliveryStateMachine) {
        metrics.update(sink.id) { stats in
            if let cursor = commit.cursor { stats.cursor = cursor }
            stats.delivered += commit.delivered
            stats.skipped += commit.skipped
            stats.deadLettered += commit.deadLetters.count
            stats.retrying = machine.pending != nil
            stats.disabled = machine.disabled
            if commit.failure != nil { stats.failed += 1 }
            if let error = commit.failure ?? commit.deadLetters.last?.lastError { stats.lastError = error }
        }
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

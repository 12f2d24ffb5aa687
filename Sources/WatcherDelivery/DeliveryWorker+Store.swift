import Foundation
import Logging
import WatcherCore
import WatcherStorage

// The worker's side of the store: loading the cursor, reading batches, committing cursor moves, dead letters and
// disables, and noticing a replay's re-enable.
extension DeliveryWorker {
    /// Loads the cursor and any persisted disable; `nil` when shutdown came first.
    func start(stopping: Flag) async -> DeliveryStateMachine? {
        let id = sink.id
        while !stopping.isSet, !Task.isCancelled {
            do {
                let (cursor, record, retry) = try store.read { txn in
                    (try txn.cursor(sink: id), try txn.sinkDisabled(sink: id), try txn.sinkRetry(sink: id))
                }
                var disabled: String?
                if let record {
                    if record.destination == (managed?.destination ?? id) {
                        disabled = record.reason
                        logger.error(
                            "sink is disabled; run `watcher deadletters replay --sink \(id)` to re-enable it",
                            metadata: ["reason": "\(record.reason)", "since": "\(record.disabledAt)"]
                        )
                    } else {
                        _ = try await store.write(.delivery) { try $0.removeSinkDisabled(sink: id) }
                        logger.notice("sink destination changed; re-enabling it", metadata: ["was": "\(record.reason)"])
                    }
                }
                status.update(id) {
                    $0.cursor = cursor
                    $0.disabled = disabled
                }
                return DeliveryStateMachine(
                    sink: id,
                    cursor: cursor,
                    filter: filter,
                    policy: policy,
                    disabled: disabled,
                    retrying: retry.map { .init(record: $0, retryAt: time.now()) },
                    seed: UInt64(truncatingIfNeeded: id.hashValue)
                )
            } catch {
                logger.error("cannot load the sink cursor", metadata: ["error": "\(error)"])
                await pause()
            }
        }
        return nil
    }

    struct Batch {
        var events: [LoggedEvent]
        var head: UInt64
        var firstAppendedAt: Date?
    }

    func read(after cursor: UInt64) throws -> Batch {
        let limit = max(policy.batchSize, 256)
        return try store.read { txn in
            let events = try txn.events(from: cursor + 1, limit: limit)
            let mark = try events.first.flatMap { try txn.appendMark(covering: $0.seq) }
            return Batch(events: events, head: try txn.lastEventSeq(), firstAppendedAt: mark?.time)
        }
    }

    enum CommitResult: Sendable {
        case committed(DeliveryStateMachine.Commit)
        case failed(String)
    }

    /// Persists a commit: dead letters, the cursor and a disable, in one write transaction.
    func write(_ commit: DeliveryStateMachine.Commit) async -> CommitResult {
        let id = sink.id
        let destination = managed?.destination ?? id
        let stamp = time.now()
        do {
            try await store.write(.delivery) { txn in
                for letter in commit.deadLetters { try txn.putDeadLetter(letter) }
                if let cursor = commit.cursor { try txn.setCursor(sink: id, cursor) }
                switch commit.retry {
                case .some(.some(let pending)):
                    try txn.setSinkRetry(pending.record)
                case .some(.none): try txn.removeSinkRetry(sink: id)
                case .none: break
                }
                if let reason = commit.disable {
                    try txn.setSinkDisabled(
                        SinkDisabledRecord(sink: id, reason: reason, destination: destination, disabledAt: stamp)
                    )
                }
            }
            return .committed(commit)
        } catch {
            return .failed("\(error)")
        }
    }

    /// Re-enables the sink when its disable record was removed (by a successful replay); keeps the lag current.
    func checkEnabled(_ machine: inout DeliveryStateMachine) {
        let id = sink.id
        let state = try? store.read { txn in
            (try txn.sinkDisabled(sink: id), try txn.cursor(sink: id), try txn.lastEventSeq())
        }
        guard let (record, cursor, head) = state else { return }
        status.update(id) { $0.head = max($0.head, head) }
        guard record == nil else { return }
        machine.enable()
        machine.reset(cursor: max(cursor, machine.cursor))
        status.update(id) { $0.disabled = nil }
        logger.notice("sink re-enabled; resuming delivery")
    }
}

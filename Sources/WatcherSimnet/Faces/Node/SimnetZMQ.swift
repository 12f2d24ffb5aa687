import Synchronization
import WatcherZMQ

/// The simnet's ZMQ face: one PUB socket publishing `hashblock` and `sequence` as Bitcoin Core does
/// (`-zmqpubhashblock` and `-zmqpubsequence` on the same endpoint). Off until ``bind(_:)``.
final class SimnetZMQ: Sendable {
    private let publisher = Mutex<ZMQPublisher?>(nil)

    /// Binds `endpoint` (`tcp://127.0.0.1:*` picks a free port).
    /// - Returns: the endpoint bound, with its port.
    func bind(_ endpoint: String) throws(ZMQError) -> String {
        let bound = try ZMQPublisher(bind: endpoint)
        publisher.withLock { $0 = bound }
        return bound.endpoint
    }

    /// Closes the socket; later notifications are dropped.
    func close() {
        publisher.withLock { publisher in
            publisher?.close()
            publisher = nil
        }
    }

    /// Whether a socket is bound.
    var isOn: Bool { publisher.withLock { $0 != nil } }

    /// The bound endpoint, `nil` when off.
    var endpoint: String? { publisher.withLock { $0?.endpoint } }

    /// Skips `count` counters of `topic`, as if that many messages were lost.
    func skip(topic: String, count: UInt32) {
        publisher.withLock { $0?.skip(topic: topic, count: count) }
    }

    /// Publishes each notification on its topic, in order. A send that fails is dropped, as a node drops a message
    /// past its high-water mark: subscribers notice the gap in the counter.
    func publish(_ notifications: [ZMQNotification]) {
        guard !notifications.isEmpty else { return }
        publisher.withLock { publisher in
            guard let publisher else { return }
            for notification in notifications {
                guard let (topic, body) = notification.topicAndBody else { continue }
                _ = try? publisher.publish(topic: topic, body: body)
            }
        }
    }

    /// What a node publishes when its mempool goes from `before` to `after`: `A` for each transaction that
    /// entered, `R` for each that left other than into a block (`confirmed`). Mempool sequences count up to
    /// `sequence`, the mempool's counter afterwards.
    static func mempoolChanges(
        before: [String],
        after: [String],
        confirmed: Set<String>,
        sequence: Int64
    ) -> [ZMQNotification] {
        let (old, new) = (Set(before), Set(after))
        let removed = before.filter { !new.contains($0) && !confirmed.contains($0) }
        let added = after.filter { !old.contains($0) }
        let total = removed.count + added.count
        var next = UInt64(max(0, sequence - Int64(total) + 1))
        var out: [ZMQNotification] = []
        out.reserveCapacity(total)
        for txid in removed {
            out.append(.mempoolRemoved(txid: txid, mempoolSequence: next))
            next += 1
        }
        for txid in added {
            out.append(.mempoolAdded(txid: txid, mempoolSequence: next))
            next += 1
        }
        return out
    }
}

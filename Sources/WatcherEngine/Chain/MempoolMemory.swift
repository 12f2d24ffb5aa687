import Synchronization

/// What the mempool job remembers between rounds, in memory only: the txids it has read (pruned at each whole read
/// to the mempool's current list, so it never outgrows the node's mempool), and when it last read the whole list.
/// After a restart everything in the mempool is read once more; the address states make the second reading change
/// nothing.
final class MempoolMemory: Sendable {
    private struct State {
        var known: Set<String> = []
        var lastFull: Duration?
        /// Unconfirmed transactions of followed addresses missing from the list, with the stored tip's height when
        /// first missed.
        var missing: [String: Int] = [:]
    }

    private let state = Mutex(State())

    /// The txids read already.
    var known: Set<String> { state.withLock { $0.known } }

    /// Whether a whole read is due at `now`: at the first round, then once `every` has passed since the last one.
    func fullDue(now: Duration, every: Duration) -> Bool {
        state.withLock { state in state.lastFull.map { now - $0 >= every } ?? true }
    }

    /// After a whole read at `now`: the known txids are pruned to `current`.
    func replace(current: Set<String>, at now: Duration) {
        state.withLock { state in
            state.known.formIntersection(current)
            state.lastFull = now
        }
    }

    /// Of `missing` (followed transactions absent from the list, the stored tip at `tipHeight`), those missed since
    /// a lower stored tip: the block scan has read a block since, and it did not confirm them. The others are
    /// remembered (from now on, for those missed for the first time); the rest forgotten.
    func gone(_ missing: Set<String>, tipHeight: Int) -> Set<String> {
        state.withLock { state in
            var next: [String: Int] = [:]
            var gone: Set<String> = []
            for txid in missing {
                let since = state.missing[txid] ?? tipHeight
                if since < tipHeight { gone.insert(txid) } else { next[txid] = since }
            }
            state.missing = next
            return gone
        }
    }

    /// After a batch is read and committed.
    func add(_ read: [String]) {
        state.withLock { $0.known.formUnion(read) }
    }
}

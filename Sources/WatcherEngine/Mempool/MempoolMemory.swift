import Synchronization
import WatcherCore

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
        /// What the providers said, when each was first missed, about who spends the outputs it spent: asked then,
        /// while a replacement is likely still in the mempool where a node can name it.
        var spends: [String: [TxOutpoint: OutputSpend]] = [:]
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
            state.spends = state.spends.filter { next[$0.key] != nil || gone.contains($0.key) }
            return gone
        }
    }

    /// The missing transactions not asked about yet.
    func unasked(_ missing: Set<String>) -> Set<String> {
        state.withLock { state in missing.filter { state.spends[$0] == nil } }
    }

    /// Remembers the answers about the outputs `txid` spent.
    func remember(_ txid: String, spends: [TxOutpoint: OutputSpend]) {
        state.withLock { $0.spends[txid] = spends }
    }

    /// The answers remembered for `txid` (forgotten once it is announced gone).
    func spends(of txid: String) -> [TxOutpoint: OutputSpend] {
        state.withLock { state in
            defer { state.spends[txid] = nil }
            return state.spends[txid] ?? [:]
        }
    }

    /// After a batch is read and committed.
    func add(_ read: [String]) {
        state.withLock { $0.known.formUnion(read) }
    }
}

import Synchronization

/// What the mempool job remembers between rounds, in memory only: the txids it has read (pruned at each whole read
/// to the mempool's current list, so it never outgrows the node's mempool), and when it last read the whole list.
/// After a restart everything in the mempool is read once more; the address states make the second reading change
/// nothing.
final class MempoolMemory: Sendable {
    private struct State {
        var known: Set<String> = []
        var lastFull: Duration?
    }

    private let state = Mutex(State())

    /// The txids read already.
    var known: Set<String> { state.withLock { $0.known } }

    /// Whether a whole read is due at `now`: at the first round, then once `every` has passed since the last one.
    func fullDue(now: Duration, every: Duration) -> Bool {
        state.withLock { state in state.lastFull.map { now - $0 >= every } ?? true }
    }

    /// After a whole read at `now`: the known txids are those of `current` read now or before.
    func replace(current: Set<String>, read: [String], at now: Duration) {
        state.withLock { state in
            state.known = state.known.union(read).intersection(current)
            state.lastFull = now
        }
    }

    /// After reading pushed txids.
    func add(_ read: [String]) {
        state.withLock { $0.known.formUnion(read) }
    }
}

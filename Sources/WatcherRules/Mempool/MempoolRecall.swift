import WatcherCore

/// What the mempool job remembers between rounds, in memory only: the txids it has read (pruned at each whole read
/// to the mempool's current list, so it never outgrows the node's mempool), and when it last read the whole list.
/// After a restart everything in the mempool is read once more; the address states make the second reading change
/// nothing.
package struct MempoolRecall: Sendable {
    /// The txids read already.
    package private(set) var known: Set<String> = []
    private var lastFull: Duration?
    /// Unconfirmed transactions of followed addresses missing from the list, with the stored tip's height when first
    /// missed.
    private var missing: [String: Int] = [:]
    /// What the providers said, when each was first missed, about who spends the outputs it spent: asked then, while
    /// a replacement is likely still in the mempool where a node can name it.
    private var spends: [String: [TxOutpoint: OutputSpend]] = [:]

    /// Nothing read yet.
    package init() {}

    /// Whether a whole read is due at `now`: at the first round, then once `every` has passed since the last one.
    package func fullDue(now: Duration, every: Duration) -> Bool {
        lastFull.map { now - $0 >= every } ?? true
    }

    /// After a whole read at `now`: the known txids are pruned to `current`.
    package mutating func replace(current: Set<String>, at now: Duration) {
        known.formIntersection(current)
        lastFull = now
    }

    /// Of `missing` (followed transactions absent from the list, the stored tip at `tipHeight`), those missed since
    /// a lower stored tip: the block scan has read a block since, and it did not confirm them. The others are
    /// remembered (from now on, for those missed for the first time); the rest forgotten.
    package mutating func gone(_ missing: Set<String>, tipHeight: Int) -> Set<String> {
        var next: [String: Int] = [:]
        var gone: Set<String> = []
        for txid in missing {
            let since = self.missing[txid] ?? tipHeight
            if since < tipHeight { gone.insert(txid) } else { next[txid] = since }
        }
        self.missing = next
        spends = spends.filter { next[$0.key] != nil || gone.contains($0.key) }
        return gone
    }

    /// The missing transactions not asked about yet.
    package func unasked(_ missing: Set<String>) -> Set<String> {
        missing.filter { spends[$0] == nil }
    }

    /// Remembers the answers about the outputs `txid` spent.
    package mutating func remember(_ txid: String, spends: [TxOutpoint: OutputSpend]) {
        self.spends[txid] = spends
    }

    /// The answers remembered for `txid` (forgotten once it is announced gone).
    package mutating func spends(of txid: String) -> [TxOutpoint: OutputSpend] {
        defer { spends[txid] = nil }
        return spends[txid] ?? [:]
    }

    /// After a batch is read and committed.
    package mutating func add(_ read: [String]) {
        known.formUnion(read)
    }
}

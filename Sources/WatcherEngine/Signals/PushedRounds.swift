import Synchronization
import WatcherCore
import WatcherStorage

/// Tells a polled address job (or the CLI's accounts) of a chain with a push connection whether a round a new
/// block started can be left to the push: while the connection is up, the server notifies each followed script
/// whose status changed and the push reads that one (and re-checks a rotating slice after each header), so a
/// block need not cost a summary of every followed address. Rounds due by the schedule, the first one, rounds
/// while the connection is down, the first round after each (re)subscription, and every round from a reorg until
/// the chain has grown past the height it replaced run in full: an Electrum status hashes each transaction with its
/// height only, so a transaction a reorg moves to another block at the same height changes no status and is pushed
/// by no notification (and the tip job may commit a reorg in more than one step).
final class PushedRounds: Sendable {
    let push: PushState
    let wakeup: BlockWakeup
    let chain: String
    let store: Store
    /// What the last round saw: the block generation, the push's subscription count and the reorgs committed.
    private let last = Mutex<(generation: UInt64, subscriptions: UInt64, reorgs: UInt64)?>(nil)
    /// After a reorg: the height it replaced, which the chain must grow past before a round is skipped again.
    private let reorged = Mutex<Int?>(nil)

    init(push: PushState, wakeup: BlockWakeup, chain: String, store: Store) {
        self.push = push
        self.wakeup = wakeup
        self.chain = chain
        self.store = store
    }

    /// Whether the round starting now was started by a block the push already covers; records what it saw.
    func leftToPush() throws -> Bool {
        let chain = self.chain
        let reorgs = wakeup.reorgs
        let tip = try store.read { try $0.tip(chain: chain)?.height }
        let now = (generation: wakeup.generation, subscriptions: push.subscriptions, reorgs: reorgs.count)
        let connected = push.isConnected
        let previous = last.withLock { last in
            defer { last = now }
            return last
        }
        // A reorg was committed since the last round, whether or not that round saw the blocks it replaced (a block
        // that came and went between two rounds took a transaction's confirmation with it).
        if let previous, previous.reorgs != reorgs.count, let height = reorgs.highestReplaced {
            reorged.withLock { $0 = max($0 ?? height, height) }
        }
        let settled = reorged.withLock { reorged in
            guard let height = reorged else { return true }
            if (tip ?? 0) > height { reorged = nil }
            return false
        }
        guard settled, let previous, connected else { return false }
        return previous.subscriptions == now.subscriptions && previous.generation != now.generation
    }
}

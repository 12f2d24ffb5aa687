import Synchronization
import WatcherCore
import WatcherRules
import WatcherStorage

/// Tells a polled address job (or the CLI's accounts) of a chain with a push connection whether a round a new
/// block started can be left to the push (the rule: ``PushedRoundPlan``): gathers what the round sees from the
/// push state, the block wake-up and the stored tip.
final class PushedRounds: Sendable {
    let push: PushState
    let wakeup: BlockWakeup
    let chain: String
    let store: Store
    private let plan = Mutex(PushedRoundPlan())

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
        let seen = PushedRoundPlan.Seen(
            generation: wakeup.generation,
            subscriptions: push.subscriptions,
            reorgs: reorgs.count,
            highestReplaced: reorgs.highestReplaced,
            connected: push.isConnected,
            tip: tip
        )
        return plan.withLock { $0.leftToPush(seen) }
    }
}

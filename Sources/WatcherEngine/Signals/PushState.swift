import Synchronization
import WatcherConfiguration
import WatcherRules

/// What a chain's push connection tells its tip and mempool jobs (``PushPlan`` behind a lock), and the wake-ups it
/// rings. While it is up the tip job polls only when told, or once per ``JobPlan/pushSafetyPoll``.
final class PushState: Sendable {
    private let plan = Mutex(PushPlan())
    /// Rung with each pushed block (and at each connect), so the tip job runs at once.
    let tipWake = BlockWakeup()
    /// Rung with each pushed mempool transaction (and at each connect or gap), so the mempool job runs at once.
    let mempoolWake = BlockWakeup()

    var isConnected: Bool { plan.withLock { $0.connected } }
    func setConnected(_ connected: Bool) { plan.withLock { $0.connected = connected } }
    /// How many times the connection (re)subscribed the followed addresses.
    var subscriptions: UInt64 { plan.withLock { $0.subscriptions } }
    func subscribed() { plan.withLock { $0.subscribed() } }
    func firstCapacityWarning() -> Bool { plan.withLock { $0.firstCapacityWarning() } }
    func takeMempool() -> (txids: [String], reconcile: Bool) { plan.withLock { $0.takeMempool() } }
    func shouldPoll(now: Duration, safety: Duration) -> Bool {
        plan.withLock { $0.shouldPoll(now: now, safety: safety) }
    }

    /// Asks the tip job for a poll now.
    func requestTip() {
        plan.withLock { $0.tipRequested = true }
        tipWake.notify()
    }

    /// Asks the mempool job to read `txid` now, or (`nil`) the whole mempool.
    func requestMempool(_ txid: String?) {
        plan.withLock { $0.requestMempool(txid) }
        mempoolWake.notify()
    }
}

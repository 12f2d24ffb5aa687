import Synchronization
import WatcherConfiguration
import WatcherCore

/// What a chain's push connection tells its tip job: whether it is up, and whether a block was pushed since the
/// last poll. While it is up the tip job polls only when told, or once per ``JobPlan/pushSafetyPoll``.
final class PushState: Sendable {
    private struct State {
        var connected = false
        var subscriptions: UInt64 = 0
        var tipRequested = false
        var lastPoll: Duration?
        var capacityWarned = false
        var mempoolTxids: [String] = []
        var mempoolReconcile = false
    }

    /// Most pushed mempool txids kept for the mempool job; past that it reads the whole mempool.
    static let maxPendingMempool = 10_000

    private let state = Mutex(State())
    /// Rung with each pushed block (and at each connect), so the tip job runs at once.
    let tipWake = BlockWakeup()
    /// Rung with each pushed mempool transaction (and at each connect or gap), so the mempool job runs at once.
    let mempoolWake = BlockWakeup()

    var isConnected: Bool { state.withLock { $0.connected } }

    func setConnected(_ connected: Bool) {
        state.withLock { $0.connected = connected }
    }

    /// How many times the connection (re)subscribed the followed addresses.
    var subscriptions: UInt64 { state.withLock { $0.subscriptions } }

    /// The connection subscribed the followed addresses (at connect, or anew): it is up.
    func subscribed() {
        state.withLock { state in
            state.connected = true
            state.subscriptions &+= 1
        }
    }

    /// `true` the first time only: the capacity warning is logged once.
    func firstCapacityWarning() -> Bool {
        state.withLock { state in
            defer { state.capacityWarned = true }
            return !state.capacityWarned
        }
    }

    /// Asks the tip job for a poll now.
    func requestTip() {
        state.withLock { $0.tipRequested = true }
        tipWake.notify()
    }

    /// Asks the mempool job to read `txid` now, or (`nil`) the whole mempool.
    func requestMempool(_ txid: String?) {
        state.withLock { state in
            if let txid, state.mempoolTxids.count < Self.maxPendingMempool {
                state.mempoolTxids.append(txid)
            } else {
                state.mempoolReconcile = true
            }
        }
        mempoolWake.notify()
    }

    /// The pushed mempool txids since the last call, and whether the whole mempool should be read.
    func takeMempool() -> (txids: [String], reconcile: Bool) {
        state.withLock { state in
            defer {
                state.mempoolTxids = []
                state.mempoolReconcile = false
            }
            return (state.mempoolTxids, state.mempoolReconcile)
        }
    }

    /// Whether the tip job should poll at `now`: always while disconnected; when connected, after a pushed
    /// block or once `safety` has passed since its last poll.
    func shouldPoll(now: Duration, safety: Duration) -> Bool {
        state.withLock { state in
            let due =
                !state.connected || state.tipRequested || state.lastPoll.map { now - $0 >= safety } ?? true
            if due {
                state.tipRequested = false
                state.lastPoll = now
            }
            return due
        }
    }
}

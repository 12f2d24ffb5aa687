/// What a chain's push connection has told the jobs of its chain, as a value with its rules: whether it is up, whether
/// a block was pushed since the tip job's last poll, and the mempool txids it named. `PushState` in the engine holds
/// one behind a lock and rings the jobs.
public struct PushPlan: Sendable, Equatable {
    /// Most pushed mempool txids kept for the mempool job; past that it reads the whole mempool.
    public static let maxPendingMempool = 10_000

    /// Whether the connection is up.
    public var connected = false
    /// How many times the connection (re)subscribed the followed addresses.
    public private(set) var subscriptions: UInt64 = 0
    /// A block was pushed (or the connection came up) since the tip job's last poll.
    public var tipRequested = false
    /// When the tip job last polled.
    public private(set) var lastPoll: Duration?
    private var capacityWarned = false
    private var mempoolTxids: [String] = []
    private var mempoolReconcile = false

    /// A plan with nothing pushed yet.
    public init() {}

    /// The connection subscribed the followed addresses (at connect, or anew): it is up.
    public mutating func subscribed() {
        connected = true
        subscriptions &+= 1
    }

    /// `true` the first time only: the capacity warning is logged once.
    public mutating func firstCapacityWarning() -> Bool {
        defer { capacityWarned = true }
        return !capacityWarned
    }

    /// The mempool job is to read `txid`, or (`nil`, or past ``maxPendingMempool``) the whole mempool.
    public mutating func requestMempool(_ txid: String?) {
        if let txid, mempoolTxids.count < Self.maxPendingMempool {
            mempoolTxids.append(txid)
        } else {
            mempoolReconcile = true
        }
    }

    /// The pushed mempool txids since the last call, and whether the whole mempool should be read.
    public mutating func takeMempool() -> (txids: [String], reconcile: Bool) {
        defer { (mempoolTxids, mempoolReconcile) = ([], false) }
        return (mempoolTxids, mempoolReconcile)
    }

    /// Whether the tip job should poll at `now`: always while disconnected; when connected, after a pushed block or
    /// once `safety` has passed since its last poll. A poll it allows is recorded as the last.
    public mutating func shouldPoll(now: Duration, safety: Duration) -> Bool {
        let due = !connected || tipRequested || lastPoll.map { now - $0 >= safety } ?? true
        if due {
            tipRequested = false
            lastPoll = now
        }
        return due
    }
}

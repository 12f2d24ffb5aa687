/// Whether a round that a block started for a polled address job (or the CLI's accounts) can be left to a push
/// connection that pushes every change, as a value with its rule. While the connection is up the server notifies
/// each followed script whose status changed, so a block need not cost a summary of every followed address. Rounds
/// due by the schedule, the first one, rounds while the connection is down, the first round after each
/// (re)subscription, and every round from a reorg until the chain has grown past the height it replaced run in full:
/// an Electrum status hashes each transaction with its height only, so a transaction a reorg moves to another block
/// at the same height changes no status and is pushed by no notification (and the tip job may commit a reorg in
/// more than one step). `PushedRounds` in the engine gathers what a round sees and holds one behind a lock.
public struct PushedRoundPlan: Sendable, Equatable {
    /// What a round sees as it starts.
    public struct Seen: Sendable, Equatable {
        /// The chain's block generation (new tips announced).
        public var generation: UInt64
        /// How many times the push (re)subscribed.
        public var subscriptions: UInt64
        /// How many reorgs were committed, and the highest height any of them replaced.
        public var reorgs: UInt64
        public var highestReplaced: Int?
        /// Whether the push connection is up.
        public var connected: Bool
        /// The stored tip's height.
        public var tip: Int?

        /// What a round saw.
        public init(
            generation: UInt64,
            subscriptions: UInt64,
            reorgs: UInt64,
            highestReplaced: Int?,
            connected: Bool,
            tip: Int?
        ) {
            self.generation = generation
            self.subscriptions = subscriptions
            self.reorgs = reorgs
            self.highestReplaced = highestReplaced
            self.connected = connected
            self.tip = tip
        }
    }

    /// What the last round saw.
    private var last: Seen?
    /// After a reorg: the height it replaced, which the chain must grow past before a round is skipped again.
    private var reorged: Int?

    /// A plan before any round.
    public init() {}

    /// Whether the round starting now, seeing `now`, was started by a block the push already covers; records what it
    /// saw.
    public mutating func leftToPush(_ now: Seen) -> Bool {
        let previous = last
        last = now
        // A reorg was committed since the last round, whether or not that round saw the blocks it replaced (a block
        // that came and went between two rounds took a transaction's confirmation with it).
        if let previous, previous.reorgs != now.reorgs, let height = now.highestReplaced {
            reorged = max(reorged ?? height, height)
        }
        if let height = reorged {
            if (now.tip ?? 0) > height { reorged = nil }
            return false
        }
        guard let previous, now.connected else { return false }
        return previous.subscriptions == now.subscriptions && previous.generation != now.generation
    }
}

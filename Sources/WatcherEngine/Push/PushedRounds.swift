import Synchronization

/// Tells a polled address job (or the CLI's accounts) of a chain with a push connection whether a round a new
/// block started can be left to the push: while the connection is up, the server notifies each followed script
/// whose status changed and the push reads that one (and re-checks a rotating slice after each header), so a
/// block need not cost a summary of every followed address. Rounds due by the schedule, the first one, rounds
/// while the connection is down, and the first round after each (re)subscription run in full.
final class PushedRounds: Sendable {
    let push: PushState
    let wakeup: BlockWakeup
    /// The block generation and push subscription count the last round saw.
    private let last = Mutex<(generation: UInt64, subscriptions: UInt64)?>(nil)

    init(push: PushState, wakeup: BlockWakeup) {
        self.push = push
        self.wakeup = wakeup
    }

    /// Whether the round starting now was started by a block the push already covers; records what it saw.
    func leftToPush() -> Bool {
        let now = (generation: wakeup.generation, subscriptions: push.subscriptions)
        let connected = push.isConnected
        return last.withLock { last in
            defer { last = now }
            guard let previous = last, connected else { return false }
            return previous.subscriptions == now.subscriptions && previous.generation != now.generation
        }
    }
}

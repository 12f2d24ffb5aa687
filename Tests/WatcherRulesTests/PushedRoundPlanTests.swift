import Testing

@testable import WatcherRules

/// ``PushedRoundPlan``: which rounds a block starts are left to a push that pushes every change.
struct PushedRoundPlanTests {
    static func seen(
        _ generation: UInt64,
        subscriptions: UInt64 = 1,
        reorgs: UInt64 = 0,
        replaced: Int? = nil,
        connected: Bool = true,
        tip: Int? = 100
    ) -> PushedRoundPlan.Seen {
        .init(
            generation: generation,
            subscriptions: subscriptions,
            reorgs: reorgs,
            highestReplaced: replaced,
            connected: connected,
            tip: tip
        )
    }

    @Test func aBlockRoundIsLeftToAnUpPushButNotTheFirstOneAScheduledOneOrOneAfterAResubscription() {
        var plan = PushedRoundPlan()
        func left(_ seen: PushedRoundPlan.Seen) -> Bool { plan.leftToPush(seen) }
        #expect(!left(Self.seen(1)))  // the first round runs in full
        #expect(left(Self.seen(2)))  // a block's round
        #expect(!left(Self.seen(2)))  // due by the schedule: no new block
        #expect(!left(Self.seen(3, subscriptions: 2)))  // the push subscribed anew
        #expect(left(Self.seen(4, subscriptions: 2)))
        #expect(!left(Self.seen(5, subscriptions: 2, connected: false)))  // the push is down
    }

    @Test func afterAReorgEveryRoundRunsUntilTheChainGrowsPastTheReplacedHeight() {
        var plan = PushedRoundPlan()
        func left(_ seen: PushedRoundPlan.Seen) -> Bool { plan.leftToPush(seen) }
        _ = left(Self.seen(1, tip: 100))
        // A reorg replaced height 100, committed between two rounds: the round that learns of it runs in full…
        #expect(!left(Self.seen(3, reorgs: 1, replaced: 100, tip: 100)))
        // …and so does every round while the chain is not past 100.
        #expect(!left(Self.seen(4, reorgs: 1, replaced: 100, tip: 100)))
        // The chain grew past it: that round still runs (it clears the reorg), the next block's round is the push's.
        #expect(!left(Self.seen(5, reorgs: 1, replaced: 100, tip: 101)))
        #expect(left(Self.seen(6, reorgs: 1, replaced: 100, tip: 102)))
    }
}

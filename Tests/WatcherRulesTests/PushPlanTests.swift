import Testing

@testable import WatcherRules

/// ``PushPlan``: when the tip job polls beside a push connection, and what the mempool job is told to read.
struct PushPlanTests {
    @Test func theTipJobPollsWhileDisconnectedAfterAPushedBlockAndAtTheSafetyInterval() {
        var plan = PushPlan()
        let safety = Duration.seconds(300)
        // Disconnected: every round polls.
        #expect(plan.shouldPoll(now: .seconds(0), safety: safety))
        #expect(plan.shouldPoll(now: .seconds(1), safety: safety))
        plan.subscribed()
        #expect(plan.connected && plan.subscriptions == 1)
        // Connected: quiet until the safety interval since the last poll…
        #expect(!plan.shouldPoll(now: .seconds(2), safety: safety))
        #expect(!plan.shouldPoll(now: .seconds(300), safety: safety))
        #expect(plan.shouldPoll(now: .seconds(301), safety: safety))
        #expect(!plan.shouldPoll(now: .seconds(302), safety: safety))
        // …or a pushed block, once.
        plan.tipRequested = true
        #expect(plan.shouldPoll(now: .seconds(303), safety: safety))
        #expect(!plan.shouldPoll(now: .seconds(304), safety: safety))
        #expect(plan.lastPoll == .seconds(303))
    }

    @Test func pushedTxidsAreTakenOnceAndAnOverflowAsksForTheWholeMempool() {
        var plan = PushPlan()
        plan.requestMempool("a")
        plan.requestMempool("b")
        let first = plan.takeMempool()
        #expect(first.txids == ["a", "b"] && !first.reconcile)
        let second = plan.takeMempool()
        #expect(second.txids.isEmpty && !second.reconcile)
        plan.requestMempool(nil)
        #expect(plan.takeMempool().reconcile)
        for index in 0...PushPlan.maxPendingMempool { plan.requestMempool("\(index)") }
        let overflow = plan.takeMempool()
        #expect(overflow.txids.count == PushPlan.maxPendingMempool && overflow.reconcile)
    }

    @Test func theCapacityWarningIsGivenOnce() {
        var plan = PushPlan()
        #expect(plan.firstCapacityWarning())
        #expect(!plan.firstCapacityWarning())
    }
}

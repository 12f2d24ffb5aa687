import Testing

@testable import WatcherRules

/// ``PushPlan``: when the tip job polls beside a push connection, and what the mempool job is told to read.
struct PushPlanTests {
    @Test func theTipJobPollsWhileDisconnectedAfterAPushedBlockAndAtTheSafetyInterval() {
        var plan = PushPlan()
        let safety = Duration.seconds(300)
        func polls(_ seconds: Int64) -> Bool { plan.shouldPoll(now: .seconds(seconds), safety: safety) }
        // Disconnected: every round polls.
        #expect(polls(0))
        #expect(polls(1))
        plan.subscribed()
        #expect(plan.connected && plan.subscriptions == 1)
        // Connected: quiet until the safety interval since the last poll…
        #expect(!polls(2))
        #expect(!polls(300))
        #expect(polls(301))
        #expect(!polls(302))
        // …or a pushed block, once.
        plan.tipRequested = true
        #expect(polls(303))
        #expect(!polls(304))
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
        let whole = plan.takeMempool()
        #expect(whole.reconcile)
        for index in 0...PushPlan.maxPendingMempool { plan.requestMempool("\(index)") }
        let overflow = plan.takeMempool()
        #expect(overflow.txids.count == PushPlan.maxPendingMempool && overflow.reconcile)
    }

    @Test func theCapacityWarningIsGivenOnce() {
        var plan = PushPlan()
        let first = plan.firstCapacityWarning()
        let second = plan.firstCapacityWarning()
        #expect(first && !second)
    }
}

import Testing
import WatcherCore
import WatcherScheduler
import WatcherTesting

/// The admission state machine: priority, aging, concurrency, breaker, deadlines.
struct ProviderLaneTests {
    typealias Lane = ProviderLane<ManualClock.Instant>

    func lane(_ limit: RateLimit, aging: Duration = .seconds(30)) -> Lane {
        Lane(limit: limit, breaker: CircuitBreaker(threshold: 3, coolDown: .seconds(10)), agingLimit: aging)
    }

    func ticket(_ id: UInt64, _ priority: RequestPriority, at clock: ManualClock, deadline: Duration = .seconds(600))
        -> Lane.Ticket
    {
        .init(id: id, priority: priority, enqueued: clock.now, deadline: clock.now.advanced(by: deadline))
    }

    /// Drains the lane tick by tick, finishing each granted request at once, and returns the grant order.
    func drain(_ lane: inout Lane, _ clock: ManualClock, until count: Int, step: Duration = .milliseconds(100))
        -> [UInt64]
    {
        var order: [UInt64] = []
        var steps = 0
        while order.count < count, steps < 1_000_000 {
            let (actions, _) = lane.poll(now: clock.now)
            for case .grant(let id) in actions {
                order.append(id)
                _ = lane.finish(.success, now: clock.now)
            }
            clock.advance(by: step)
            steps += 1
        }
        return order
    }

    @Test func urgentWorkJumpsABacklog() {
        let clock = ManualClock()
        var lane = lane(RateLimit(requests: 1, per: .seconds(1), burst: 1, concurrency: 1))
        for id in 1...50 { lane.enqueue(ticket(UInt64(id), .backfill, at: clock)) }
        let first = drain(&lane, clock, until: 3)
        #expect(first == [1, 2, 3])
        lane.enqueue(ticket(100, .tip, at: clock))
        lane.enqueue(ticket(101, .refresh, at: clock))
        let next = drain(&lane, clock, until: 3)
        #expect(next == [100, 101, 4])
    }

    @Test func agedLowPriorityWorkStillProgresses() {
        let clock = ManualClock()
        var lane = lane(RateLimit(requests: 1, per: .seconds(1), burst: 1, concurrency: 1), aging: .seconds(5))
        lane.enqueue(ticket(1, .backfill, at: clock))
        // A steady stream of tip checks, more than the budget can serve.
        var granted: [UInt64] = []
        var nextID: UInt64 = 1000
        for _ in 0..<200 {
            lane.enqueue(ticket(nextID, .tip, at: clock))
            nextID += 1
            let (actions, _) = lane.poll(now: clock.now)
            for case .grant(let id) in actions {
                granted.append(id)
                _ = lane.finish(.success, now: clock.now)
            }
            clock.advance(by: .milliseconds(100))
        }
        let backfillPosition = granted.firstIndex(of: 1)
        #expect(backfillPosition != nil, "backfill was starved")
        #expect((backfillPosition ?? 99) <= 6)
        #expect(granted.count == 20)
    }

    @Test func backfillLeavesHalfTheBurstForUrgentWork() {
        let clock = ManualClock()
        var lane = lane(RateLimit(requests: 10, per: .seconds(10), burst: 4, concurrency: 4))
        for id in 1...4 { lane.enqueue(ticket(UInt64(id), .backfill, at: clock)) }
        var granted = lane.poll(now: clock.now).actions
        for _ in granted { _ = lane.finish(.success, now: clock.now) }
        #expect(granted.count == 2, "backfill took more than the leftover budget")
        lane.enqueue(ticket(10, .tip, at: clock))
        lane.enqueue(ticket(11, .tip, at: clock))
        granted = lane.poll(now: clock.now).actions
        #expect(granted == [.grant(10), .grant(11)])
    }

    @Test func concurrencyCapHoldsUntilFinish() {
        let clock = ManualClock()
        var lane = lane(RateLimit(requests: 100, per: .seconds(1), burst: 100, concurrency: 2))
        for id in 1...5 { lane.enqueue(ticket(UInt64(id), .refresh, at: clock)) }
        #expect(lane.poll(now: clock.now).actions == [.grant(1), .grant(2)])
        #expect(lane.poll(now: clock.now).actions.isEmpty)
        _ = lane.finish(.success, now: clock.now)
        #expect(lane.poll(now: clock.now).actions == [.grant(3)])
    }

    @Test func expiredRequestsAreReportedAndNextWakeIsTheToken() {
        let clock = ManualClock()
        var lane = lane(RateLimit(requests: 1, per: .seconds(10), burst: 1, concurrency: 4))
        lane.enqueue(ticket(1, .refresh, at: clock))
        lane.enqueue(ticket(2, .refresh, at: clock, deadline: .seconds(3)))
        let first = lane.poll(now: clock.now)
        #expect(first.actions == [.grant(1)])
        #expect(first.nextWake == clock.now.advanced(by: .seconds(3)))
        clock.advance(by: .seconds(3))
        #expect(lane.poll(now: clock.now).actions == [.expire(2)])
    }

    @Test func breakerOpensAfterThresholdAndProbesAfterCoolDown() {
        let clock = ManualClock()
        var lane = lane(RateLimit(requests: 100, per: .seconds(1), burst: 100, concurrency: 4))
        var transitions: [CircuitBreaker<ManualClock.Instant>.Transition] = []
        for id in 1...3 {
            lane.enqueue(ticket(UInt64(id), .refresh, at: clock))
            _ = lane.poll(now: clock.now)
            if let t = lane.finish(.failure, now: clock.now) { transitions.append(t) }
        }
        #expect(transitions == [.degraded(failures: 3)])
        lane.enqueue(ticket(10, .refresh, at: clock))
        let blocked = lane.poll(now: clock.now)
        #expect(blocked.actions.isEmpty)
        #expect(blocked.nextWake == clock.now.advanced(by: .seconds(10)))
        clock.advance(by: .seconds(10))
        lane.enqueue(ticket(11, .refresh, at: clock))
        // Half-open: exactly one probe goes.
        #expect(lane.poll(now: clock.now).actions == [.grant(10)])
        #expect(lane.poll(now: clock.now).actions.isEmpty)
        #expect(lane.finish(.success, now: clock.now) == .recovered)
        #expect(lane.poll(now: clock.now).actions == [.grant(11)])
    }

    @Test func rateLimitedPausesTheBucketWithoutOpeningTheBreaker() {
        let clock = ManualClock()
        var lane = lane(RateLimit(requests: 100, per: .seconds(1), burst: 100, concurrency: 4))
        lane.enqueue(ticket(1, .refresh, at: clock))
        _ = lane.poll(now: clock.now)
        for _ in 0..<5 {
            _ = lane.finish(.rateLimited, pauseUntil: clock.now.advanced(by: .seconds(7)), now: clock.now)
        }
        #expect(lane.breaker.state == .closed(failures: 0))
        lane.enqueue(ticket(2, .refresh, at: clock))
        let paused = lane.poll(now: clock.now)
        #expect(paused.actions.isEmpty)
        #expect(paused.nextWake == clock.now.advanced(by: .seconds(7)))
    }

    @Test func afterAPauseOneProbeGoesBeforeTheConcurrencyReopens() {
        let clock = ManualClock()
        var lane = lane(RateLimit(requests: 100, per: .seconds(1), burst: 100, concurrency: 4))
        for id in 1...4 { lane.enqueue(ticket(UInt64(id), .refresh, at: clock)) }
        #expect(lane.poll(now: clock.now).actions.count == 4)
        // The first refusal pauses for 7 s and slows the rate once; the other three in flight change nothing more.
        for _ in 0..<4 {
            _ = lane.finish(.rateLimited, pauseUntil: clock.now.advanced(by: .seconds(7)), now: clock.now)
        }
        #expect(lane.bucket.slowdown == 1.5)
        for id in 5...8 { lane.enqueue(ticket(UInt64(id), .refresh, at: clock)) }
        clock.advance(by: .seconds(8))
        #expect(lane.poll(now: clock.now).actions == [.grant(5)])
        clock.advance(by: .seconds(1))
        #expect(lane.poll(now: clock.now).actions.isEmpty, "no second request before the probe is answered")
        _ = lane.finish(.success, now: clock.now)
        #expect(!lane.probing)
        #expect(lane.poll(now: clock.now).actions.count == 3)
    }

    @Test func backoffIsCappedFullJitter() {
        let backoff = Backoff(base: .seconds(1), cap: .seconds(60))
        #expect(backoff.ceiling(attempt: 0) == .seconds(1))
        #expect(backoff.ceiling(attempt: 3) == .seconds(8))
        #expect(backoff.ceiling(attempt: 30) == .seconds(60))
        var random = SplitMixRandom(seed: 1)
        let delays = (0..<1000).map { _ in backoff.delay(attempt: 2, using: &random) }
        #expect(delays.allSatisfy { $0 >= .zero && $0 <= .seconds(4) })
        #expect(delays.contains { $0 < .seconds(1) } && delays.contains { $0 > .seconds(3) })
    }
}

import Testing
import WatcherCore
import WatcherScheduler
import WatcherTesting

/// How the lane learns a server's real rate from its refusals (issue 23), on a manual clock: the interval the
/// server showed is kept after one refusal, probing back up takes small steps, an idle spell starts a new window,
/// and a 503 takes the same path as a 429.
struct LaneConvergenceTests {
    typealias Lane = ProviderLane<ManualClock.Instant>

    func lane(_ limit: RateLimit = RateLimit(requests: 10, per: .seconds(5), burst: 10, concurrency: 4)) -> Lane {
        Lane(limit: limit, breaker: CircuitBreaker(threshold: 3, coolDown: .seconds(10)))
    }

    func ticket(_ id: UInt64, at clock: ManualClock) -> Lane.Ticket {
        .init(id: id, priority: .refresh, enqueued: clock.now, deadline: clock.now.advanced(by: .seconds(600)))
    }

    /// A server allowing one request per 7 s: the first burst is refused (the lane only slows by half, it knows
    /// nothing yet); after the pause one request is answered and the next, 0.75 s later, refused with
    /// `Retry-After: 7`. The server's interval is then at most 7.75 s, and that is the interval the lane keeps,
    /// with the margin of a configured limit: 7.75 s × 1.02 + 10 ms = 7.915 s.
    @Test func keepsTheIntervalTheServerShowedAfterOneRefusal() {
        let clock = ManualClock()
        var lane = lane()
        for id in 1...4 { lane.enqueue(ticket(UInt64(id), at: clock)) }
        #expect(lane.poll(now: clock.now).actions.count == 4)
        for _ in 0..<3 {
            _ = lane.finish(.rateLimited, pauseUntil: clock.now.advanced(by: .seconds(7)), now: clock.now)
        }
        _ = lane.finish(.success, now: clock.now)
        #expect(lane.bucket.slowdown == 1.5)
        let resume = clock.now.advanced(by: .seconds(7))
        #expect(lane.window?.start == resume && lane.window?.accepted == 0, "an answer granted before the pause")

        for id in 5...8 { lane.enqueue(ticket(UInt64(id), at: clock)) }
        clock.advance(by: .seconds(7))
        #expect(lane.poll(now: clock.now).actions == [.grant(5)])
        _ = lane.finish(.success, now: clock.now)
        let next = lane.poll(now: clock.now)
        #expect(next.actions.isEmpty && next.nextWake == clock.now.advanced(by: .milliseconds(750)))
        clock.advance(by: .milliseconds(750))
        #expect(lane.poll(now: clock.now).actions == [.grant(6)])
        _ = lane.finish(.rateLimited, pauseUntil: clock.now.advanced(by: .seconds(7)), now: clock.now)
        #expect(abs(lane.bucket.interval.seconds - 7.915) < 1e-9)

        // After the pause: one request, then the next no sooner than 7.915 s later.
        clock.advance(by: .seconds(7))
        #expect(lane.poll(now: clock.now).actions == [.grant(7)])
        _ = lane.finish(.success, now: clock.now)
        clock.advance(by: .milliseconds(7905))
        #expect(lane.poll(now: clock.now).actions.isEmpty)
        clock.advance(by: .milliseconds(20))
        #expect(lane.poll(now: clock.now).actions == [.grant(8)])
    }

    /// Ten answers in a row win back a twentieth of the learned rate, not a tenth of the configured one (which
    /// would be 0.2 requests/s against a server that takes 0.14, and draw the next refusal at once).
    @Test func probesBackUpInSmallSteps() {
        let clock = ManualClock()
        var lane = lane()
        var served = Model(interval: .seconds(7), clock: clock)
        var id: UInt64 = 0
        var intervals: [Double] = []
        for _ in 0..<40 {
            id += 1
            lane.enqueue(ticket(id, at: clock))
            while lane.poll(now: clock.now).actions.isEmpty { clock.advance(by: .milliseconds(10)) }
            if let retryAfter = served.take() {
                _ = lane.finish(.rateLimited, pauseUntil: clock.now.advanced(by: retryAfter), now: clock.now)
            } else {
                _ = lane.finish(.success, now: clock.now)
            }
            intervals.append(lane.bucket.interval.seconds)
        }
        let learned = intervals.filter { $0 >= 7 }
        #expect(!learned.isEmpty)
        // Between two decreases the interval only shrinks, by at most 5% of the rate at a time.
        for (before, after) in zip(intervals, intervals.dropFirst()) where after < before {
            #expect(before / after <= 1.05 + 1e-9, "\(before) s → \(after) s")
        }
    }

    /// On the model of the wall-clock test (a server allowing 1 per 7 s, 10 per 5 s configured, 8 callers for a
    /// minute): at most 2 refusals in the second half, and the server's budget is not wasted either.
    @Test func convergesWithinHalfAMinuteOnAServerFarStricterThanConfigured() {
        let clock = ManualClock()
        let start = clock.now
        var lane = lane()
        var server = Model(interval: .seconds(7), clock: clock)
        var refusals: [Duration] = []
        var served = 0
        var id: UInt64 = 0
        var running: [UInt64] = []
        while start.duration(to: clock.now) < .seconds(600) {
            while lane.queue.count + running.count < 8 {
                id += 1
                lane.enqueue(ticket(id, at: clock))
            }
            for case .grant(let granted) in lane.poll(now: clock.now).actions { running.append(granted) }
            // Requests answered 10 ms after their grant, in grant order.
            clock.advance(by: .milliseconds(10))
            for _ in running {
                if let retryAfter = server.take() {
                    refusals.append(start.duration(to: clock.now))
                    _ = lane.finish(.rateLimited, pauseUntil: clock.now.advanced(by: retryAfter), now: clock.now)
                } else {
                    served += 1
                    _ = lane.finish(.success, now: clock.now)
                }
            }
            running.removeAll()
        }
        let late = refusals.filter { $0 >= .seconds(30) && $0 < .seconds(60) }
        #expect(late.count <= 2, "\(late.count) refusals in the second half of the first minute: \(refusals)")
        // Ten minutes: the server allows 1 + 600 / 7 = 86; AIMD's sawtooth keeps most of it, with few refusals.
        #expect(served >= 70, "\(served) served")
        #expect(refusals.count <= 12, "\(refusals.count) refusals in 10 minutes")
    }

    /// The server's rate is only read from a window of continuous demand: after an idle spell its bucket may have
    /// filled and wasted tokens, so a refusal then only slows the lane by the plain multiplicative step.
    @Test func anIdleSpellStartsANewWindow() {
        let clock = ManualClock()
        var lane = lane()
        lane.enqueue(ticket(1, at: clock))
        _ = lane.poll(now: clock.now)
        _ = lane.finish(.success, now: clock.now)
        clock.advance(by: .seconds(3600))
        for id in 2...3 { lane.enqueue(ticket(UInt64(id), at: clock)) }
        _ = lane.poll(now: clock.now)
        _ = lane.finish(.success, now: clock.now)
        _ = lane.finish(.rateLimited, pauseUntil: clock.now.advanced(by: .seconds(2)), now: clock.now)
        // With the window from the first request it would be (3600 s + 2 s) / 2; from the second, 2 s / 1 (and the
        // margin: × 1.02 + 10 ms).
        #expect(abs(lane.bucket.interval.seconds - 2.05) < 1e-9)
    }

    /// A 503 pauses the lane as a 429 does (one probe after the pause, a slower rate) and counts as a failure
    /// towards the breaker, so a server that answers only 503 is still failed over.
    @Test func overloadedPausesLikeARefusalAndCountsAsAFailure() {
        let clock = ManualClock()
        var lane = lane()
        for id in 1...2 { lane.enqueue(ticket(UInt64(id), at: clock)) }
        #expect(lane.poll(now: clock.now).actions.count == 2)
        _ = lane.finish(.overloaded, pauseUntil: clock.now.advanced(by: .seconds(1)), now: clock.now)
        #expect(lane.bucket.slowdown == 1.5 && lane.probing)
        #expect(lane.breaker.state == .closed(failures: 1))
        _ = lane.finish(.overloaded, pauseUntil: clock.now.advanced(by: .seconds(1)), now: clock.now)
        #expect(lane.bucket.slowdown == 1.5, "the same episode")
        #expect(lane.breaker.state == .closed(failures: 2))
        lane.enqueue(ticket(3, at: clock))
        #expect(lane.poll(now: clock.now).nextWake == clock.now.advanced(by: .seconds(1)))
    }
}

/// A server's limiter for these tests: one token per `interval`, a bucket of one, and `Retry-After` in whole
/// seconds rounded up, as the simnet answers.
private struct Model {
    let interval: Duration
    let clock: ManualClock
    var next: ManualClock.Instant

    init(interval: Duration, clock: ManualClock) {
        self.interval = interval
        self.clock = clock
        self.next = clock.now
    }

    /// `nil` when served, else the `Retry-After`.
    mutating func take() -> Duration? {
        let now = clock.now
        guard next <= now else { return .seconds(Int((now.duration(to: next).seconds).rounded(.up))) }
        next = now.advanced(by: interval)
        return nil
    }
}

import Testing
import WatcherCore

/// The rate limiter state machine, driven by a manual clock.
struct TokenBucketTests {
    typealias Bucket = TokenBucket<ManualClock.Instant>

    @Test func burstThenOneTokenPerInterval() {
        let clock = ManualClock()
        var bucket = Bucket(limit: RateLimit(requests: 20, per: .seconds(60), burst: 20))
        let granted = (0..<100).filter { _ in bucket.acquire(now: clock.now) == .granted }.count
        #expect(granted == 20)
        #expect(bucket.acquire(now: clock.now) == .wait(until: clock.now.advanced(by: .seconds(3))))
        clock.advance(by: .milliseconds(2999))
        #expect(bucket.acquire(now: clock.now) != .granted)
        clock.advance(by: .milliseconds(1))
        #expect(bucket.acquire(now: clock.now) == .granted)
        #expect(bucket.acquire(now: clock.now) != .granted)
    }

    @Test func sustainedRateIsExact() {
        let clock = ManualClock()
        var bucket = Bucket(limit: RateLimit(requests: 10, per: .seconds(5), burst: 10))
        var granted = 0
        // Ask every 10 ms over [0 s, 60 s): the burst of 10 at t=0, then one at 0.5 s, 1.0 s … 59.5 s (119).
        for _ in 0..<6000 {
            if bucket.acquire(now: clock.now) == .granted { granted += 1 }
            clock.advance(by: .milliseconds(10))
        }
        #expect(granted == 129)
    }

    @Test func pauseHonoursRetryAfterAndDrains() {
        let clock = ManualClock()
        var bucket = Bucket(limit: RateLimit(requests: 10, per: .seconds(10), burst: 10))
        #expect(bucket.acquire(now: clock.now) == .granted)
        bucket.pause(until: clock.now.advanced(by: .seconds(7)))
        #expect(bucket.available(now: clock.now) == 0)
        #expect(bucket.earliest(now: clock.now) >= clock.now.advanced(by: .seconds(7)))
        clock.advance(by: .seconds(7))
        // After the pause, a trickle: one token is owed for the pause window.
        let grantedAtOnce = (0..<10).filter { _ in bucket.acquire(now: clock.now) == .granted }.count
        #expect(grantedAtOnce == 9)
        // A shorter pause never shortens a longer one.
        bucket.pause(until: clock.now.advanced(by: .seconds(30)))
        bucket.pause(until: clock.now.advanced(by: .seconds(1)))
        #expect(bucket.pausedUntil == clock.now.advanced(by: .seconds(30)))
    }

    @Test func zeroRequestsMeansUnlimited() {
        let clock = ManualClock()
        var bucket = Bucket(limit: RateLimit(requests: 0, per: .seconds(1)))
        #expect((0..<1000).allSatisfy { _ in bucket.acquire(now: clock.now) == .granted })
    }
}

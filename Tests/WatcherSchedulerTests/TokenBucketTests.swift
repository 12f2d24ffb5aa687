import Testing
import WatcherCore
import WatcherScheduler
import WatcherTesting

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
        // After the pause, a trickle: one request, then one per interval, never the rest of the burst.
        let grantedAtOnce = (0..<10).filter { _ in bucket.acquire(now: clock.now) == .granted }.count
        #expect(grantedAtOnce == 1)
        clock.advance(by: .seconds(1))
        #expect(bucket.acquire(now: clock.now) == .granted)
        #expect(bucket.acquire(now: clock.now) != .granted)
        // A shorter pause never shortens a longer one.
        bucket.pause(until: clock.now.advanced(by: .seconds(30)))
        bucket.pause(until: clock.now.advanced(by: .seconds(1)))
        #expect(bucket.pausedUntil == clock.now.advanced(by: .seconds(30)))
    }

    @Test func slowsDownMultiplicativelyAndRecoversAdditively() {
        var bucket = Bucket(limit: RateLimit(requests: 10, per: .seconds(10)))
        bucket.slowDown()
        bucket.slowDown()
        #expect(bucket.interval == .milliseconds(2250))
        #expect(Int(bucket.currentRequestsPerHour.rounded()) == 1600)
        // Each step wins back a twentieth of the rate the last decrease left (1/2.25 of the configured rate).
        bucket.speedUp()
        #expect(abs(1 / bucket.slowdown - 1.05 / 2.25) < 1e-9)
        for _ in 0..<23 { bucket.speedUp() }
        #expect(bucket.slowdown > 1, "25 steps of a twentieth to climb from 4/9 to the configured rate")
        bucket.speedUp()
        #expect(bucket.slowdown == 1 && bucket.interval == .seconds(1))
        for _ in 0..<20 { bucket.slowDown() }
        #expect(bucket.slowdown == Bucket.maximumSlowdown)
    }

    @Test func slowsDownAtLeastToTheIntervalTheServerShowed() {
        var bucket = Bucket(limit: RateLimit(requests: 10, per: .seconds(5)))
        bucket.slowDown(by: 1.25, toAtLeast: .milliseconds(7750))
        #expect(abs(bucket.interval.seconds - 7.75) < 1e-9)
        // A floor below the multiplicative step changes nothing: the step still applies.
        bucket.slowDown(by: 1.25, toAtLeast: .seconds(1))
        #expect(abs(bucket.interval.seconds - 7.75 * 1.25) < 1e-9)
        // Never slower than the maximum slowdown.
        bucket.slowDown(by: 1.25, toAtLeast: .seconds(3600))
        #expect(bucket.slowdown == Bucket.maximumSlowdown)
    }

    @Test func theSafetyMarginKeepsBelowTheServersCount() {
        let safe = RateLimit(requests: 10, per: .seconds(5), burst: 10, concurrency: 4).withSafetyMargin
        #expect(safe.per / safe.requests == .milliseconds(520))
        #expect(safe.burst == 9 && safe.concurrency == 4)
        #expect(RateLimit(requests: 0, per: .seconds(1)).withSafetyMargin.requests == 0)
    }

    @Test func zeroRequestsMeansUnlimited() {
        let clock = ManualClock()
        var bucket = Bucket(limit: RateLimit(requests: 0, per: .seconds(1)))
        #expect((0..<1000).allSatisfy { _ in bucket.acquire(now: clock.now) == .granted })
    }
}

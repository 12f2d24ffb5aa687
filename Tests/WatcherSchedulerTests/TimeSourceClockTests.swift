import Foundation
import Testing
import WatcherCore
import WatcherScheduler
import WatcherTesting

/// ``TimeSourceClock``: the scheduler built from a ``TimeSource`` reads that source and no other clock.
struct TimeSourceClockTests {
    @Test func itsNowAndSleepsFollowTheSource() async throws {
        let manual = ManualClock()
        let clock = TimeSourceClock(manual.timeSource())
        #expect(clock.now.offset == .zero)
        manual.advance(by: .seconds(5))
        #expect(clock.now.offset == .seconds(5))
        try await clock.sleep(until: clock.now.advanced(by: .seconds(3)), tolerance: nil)
        // The manual clock's sleep moves it to the deadline: the source, and so the clock, read 8 s.
        #expect(manual.now.offset == .seconds(8))
        #expect(clock.now.offset == .seconds(8))
        #expect(clock.now.duration(to: clock.now.advanced(by: .seconds(2))) == .seconds(2))
    }

    /// A Retry-After of 7 s, honoured on the source's time: the retry comes 7 s later on the manual clock behind
    /// the source, as it does for a scheduler on that manual clock directly (`SchedulerTests`).
    @Test func aSchedulerOnTheSourceWaitsRetryAfterOnIt() async throws {
        let manual = ManualClock()
        let time = manual.timeSource()
        let scheduler = Scheduler(
            limits: ["bb": RateLimit(requests: 100, per: .seconds(1), burst: 100)],
            clock: TimeSourceClock(time),
            logger: LogLines().logger
        )
        let calls = Locked<[Duration]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await scheduler.run() }
            let value = try await scheduler.perform(on: ["bb"], priority: .refresh, budget: .seconds(60)) { _ in
                let first = calls.withLock { calls -> Bool in
                    calls.append(time.elapsed)
                    return calls.count == 1
                }
                if first { throw ProviderError.rateLimited(provider: "bb", retryAfter: .seconds(7)) }
                return 42
            }
            #expect(value == 42)
            group.cancelAll()
        }
        let recorded = calls.withLock { $0 }
        #expect(recorded.count == 2)
        #expect(recorded[1] - recorded[0] >= .seconds(7))
    }
}

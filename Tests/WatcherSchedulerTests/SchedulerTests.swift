import Synchronization
import Testing
import WatcherCore
import WatcherScheduler
import WatcherTesting

/// The scheduler actor on a manual clock: timed wake-ups advance simulated time instantly.
struct SchedulerTests {
    /// Runs `body` with a scheduler whose run loop is going.
    func withScheduler(
        _ limits: [String: RateLimit],
        policy: SchedulerPolicy = .init(),
        lines: LogLines = LogLines(),
        _ body: @Sendable (Scheduler<ManualClock>, ManualClock) async throws -> Void
    ) async throws {
        let clock = ManualClock()
        let scheduler = Scheduler(limits: limits, policy: policy, clock: clock, logger: lines.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await scheduler.run() }
            try await body(scheduler, clock)
            group.cancelAll()
        }
    }

    @Test func retryAfterPausesTheProvider() async throws {
        let calls = Locked<[ManualClock.Instant]>([])
        try await withScheduler(["bb": RateLimit(requests: 100, per: .seconds(1), burst: 100)]) { scheduler, clock in
            let value = try await scheduler.perform(on: ["bb"], priority: .refresh, budget: .seconds(60)) { _ in
                let now = clock.now
                let first = calls.withLock { calls -> Bool in
                    calls.append(now)
                    return calls.count == 1
                }
                if first { throw ProviderError.rateLimited(provider: "bb", retryAfter: .seconds(7)) }
                return 42
            }
            #expect(value == 42)
        }
        let recorded = calls.withLock { $0 }
        #expect(recorded.count == 2)
        #expect(recorded[0].duration(to: recorded[1]) >= .seconds(7))
    }

    /// A node's "Work queue depth exceeded" (503) goes through the limiter as a 429 does: the job tries again after
    /// the pause, and the provider's rate slows for every job after it.
    @Test func a503SlowsTheProviderAsA429Does() async throws {
        let calls = Locked<[ManualClock.Instant]>([])
        try await withScheduler(["node": RateLimit(requests: 10, per: .seconds(1), burst: 1)]) { scheduler, clock in
            for job in 0..<6 {
                let value = try await scheduler.perform(on: ["node"], priority: .refresh, budget: .seconds(60)) { id in
                    let count = calls.withLock { calls -> Int in
                        calls.append(clock.now)
                        return calls.count
                    }
                    if count == 1 {
                        throw ProviderError.unavailable(provider: id, status: 503, detail: "Work queue depth exceeded")
                    }
                    return job
                }
                #expect(value == job)
            }
        }
        let times = calls.withLock { $0 }
        #expect(times.count == 7)
        // Configured, with the margin: one per 112 ms. After the 503 the lane runs 1.5 times slower: 168 ms.
        for (earlier, later) in zip(times.dropFirst(), times.dropFirst(2)) {
            #expect(earlier.duration(to: later) >= .milliseconds(167), "\(earlier.duration(to: later))")
        }
    }

    @Test func failsOverOnceAndReturnsToThePrimary() async throws {
        let lines = LogLines()
        let policy = SchedulerPolicy(maxAttempts: 10, breakerThreshold: 3, breakerCoolDown: .seconds(30))
        let limits = [
            "primary": RateLimit(requests: 100, per: .seconds(1)),
            "secondary": RateLimit(requests: 100, per: .seconds(1)),
        ]
        let primaryDown = Locked(true)
        try await withScheduler(limits, policy: policy, lines: lines) { scheduler, clock in
            var served: [String] = []
            for _ in 0..<20 {
                let who = try await scheduler.perform(
                    on: ["primary", "secondary"],
                    priority: .refresh,
                    budget: .seconds(120)
                ) { id in
                    if id == "primary", primaryDown.withLock({ $0 }) {
                        throw ProviderError.unavailable(provider: id, status: 503, detail: nil)
                    }
                    return id
                }
                served.append(who)
            }
            #expect(served.allSatisfy { $0 == "secondary" })
            primaryDown.withLock { $0 = false }
            clock.advance(by: .seconds(31))
            let back = try await scheduler.perform(
                on: ["primary", "secondary"],
                priority: .refresh,
                budget: .seconds(60)
            ) { id in id }
            #expect(back == "primary")
        }
        let messages = lines.all
        #expect(messages.filter { $0.hasPrefix("failing over") }.count == 1, "\(messages)")
        #expect(messages.filter { $0.hasPrefix("provider degraded") }.count == 1)
        #expect(messages.filter { $0.hasPrefix("provider recovered") }.count == 1)
        #expect(messages.filter { $0.hasPrefix("traffic back on primary") }.count == 1)
    }

    @Test func givesUpAfterMaxAttempts() async throws {
        let attempts = Locked(0)
        try await withScheduler(["bb": RateLimit(requests: 100, per: .seconds(1))], policy: .init(maxAttempts: 3)) {
            scheduler,
            _ in
            await #expect(throws: ProviderError.timeout(provider: "bb", after: .seconds(1))) {
                try await scheduler.perform(on: ["bb"], priority: .refresh, budget: .seconds(600)) { id -> Int in
                    attempts.withLock { $0 += 1 }
                    throw ProviderError.timeout(provider: id, after: .seconds(1))
                }
            }
        }
        #expect(attempts.withLock { $0 } == 3)
    }

    @Test func notFoundIsNotRetried() async throws {
        let attempts = Locked(0)
        try await withScheduler(["bb": RateLimit(requests: 100, per: .seconds(1))]) { scheduler, _ in
            await #expect(throws: ProviderError.self) {
                try await scheduler.perform(on: ["bb"], priority: .refresh, budget: .seconds(60)) { id -> Int in
                    attempts.withLock { $0 += 1 }
                    throw ProviderError.notFound(provider: id, what: "tx")
                }
            }
        }
        #expect(attempts.withLock { $0 } == 1)
    }

    @Test func budgetIsUsedFullyWithoutOverrun() async throws {
        // 10 requests per 5 s, burst 10; 60 jobs queued at once: grants never exceed the bucket's allowance.
        let grants = Locked<[ManualClock.Instant]>([])
        try await withScheduler(["bb": RateLimit(requests: 10, per: .seconds(5), burst: 10, concurrency: 4)]) {
            scheduler,
            clock in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<60 {
                    group.addTask {
                        _ = try await scheduler.perform(on: ["bb"], priority: .refresh, budget: .seconds(3600)) { _ in
                            grants.withLock { $0.append(clock.now) }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let times = grants.withLock { $0 }.sorted()
        #expect(times.count == 60)
        // Never ahead of the bucket: grant k (0-based) comes no earlier than (k - 9) × 0.5 s.
        for (k, time) in times.enumerated() where k >= 10 {
            #expect(times[0].duration(to: time) >= .milliseconds(500) * (k - 9))
        }
        // 60 requests with the safety margin (burst 9, then one per 0.5 s × 1.02 + 10 ms): the last at 51 × 520 ms.
        #expect(times[0].duration(to: times[59]) == .milliseconds(520) * 51)
    }
}

/// A value behind a `Mutex`, shareable by reference between test tasks.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<T>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}

import BlockbookAdapter
import Foundation
import RawAddrAdapter
import Synchronization
import Testing
import WatcherCore
import WatcherScheduler
import WatcherSimnet
import WatcherTesting

/// The scheduler with real adapters over real HTTP against the simnet's rate limits and faults. The scheduler
/// and the simnet share one simulated clock, so a minute of traffic is exact and fast.
@Suite(.serialized)
struct SchedulerIntegrationTests {
    static func configuration(_ clock: ManualClock, seed: UInt64 = 7) -> SimnetConfiguration {
        var configuration = SimnetConfiguration(
            seed: seed,
            port: 0,
            blockInterval: nil,
            clock: clock.timeSource(epoch: Date(timeIntervalSince1970: 1_700_000_000))
        )
        configuration.chain = ChainParameters(seed: seed, fundedAddressCount: 200)
        return configuration
    }

    /// Runs `body` with a scheduler whose timer loop is running.
    static func withScheduler(
        _ limits: [String: RateLimit],
        clock: ManualClock,
        policy: SchedulerPolicy = .init(),
        logger: LogLines = LogLines(),
        _ body: @Sendable (Scheduler<ManualClock>) async throws -> Void
    ) async throws {
        let scheduler = Scheduler(limits: limits, policy: policy, clock: clock, logger: logger.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await scheduler.run() }
            try await body(scheduler)
            group.cancelAll()
        }
    }

    @Test func usesTheBudgetWithoutA429() async throws {
        let clock = ManualClock()
        let limit = RateLimit(requests: 10, per: .seconds(5), burst: 10, concurrency: 4)
        try await Harness.with(Self.configuration(clock)) { harness in
            await harness.simnet.setRateLimit(family: .blockbook, limit)
            let addresses = await harness.simnet.addresses().map(\.address)
            #expect(addresses.count >= 200)
            let blockbook = harness.blockbook()
            try await Self.withScheduler(["bb": limit], clock: clock) { scheduler in
                // More work than the budget: 200 addresses, refreshed over and over, for 60 s of simulated time.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<8 {
                        group.addTask {
                            var index = worker
                            while clock.now.offset < .seconds(60) {
                                let address = addresses[index % 200]
                                _ = try await scheduler.perform(on: ["bb"], priority: .refresh, budget: .seconds(600)) {
                                    _ in
                                    try await blockbook.address(address)
                                }
                                index += 8
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let log = await harness.simnet.stats().log.filter { $0.family == .blockbook }
            let window = log.filter { $0.t - 1_700_000_000 < 60 }
            let limited = log.filter { $0.status == 429 }
            #expect(limited.isEmpty, "the simnet answered \(limited.count) requests with 429")
            // The budget over [0 s, 60 s): the burst of 10, then 2 per second. A sleep on the shared simulated clock
            // moves time at once, also while requests are in flight on the real loopback, so on a loaded machine a few
            // tokens overflow the full bucket (116 of 129 seen in CI): 85% here; the wall-clock test asks 84%.
            let budget = 10 + 119
            #expect(Double(window.count) >= 0.85 * Double(budget), "used \(window.count) of \(budget)")
            #expect(window.count <= budget)
        }
    }

    @Test func honoursRetryAfter() async throws {
        let clock = ManualClock()
        try await Harness.with(Self.configuration(clock)) { harness in
            // The simnet allows one request per 7 s; the watcher believes in a far larger budget.
            await harness.simnet.setRateLimit(family: .blockbook, RateLimit(requests: 1, per: .seconds(7), burst: 1))
            let blockbook = harness.blockbook()
            let address = try #require(await harness.simnet.addresses().first?.address)
            try await Self.withScheduler(["bb": RateLimit(requests: 100, per: .seconds(1))], clock: clock) {
                scheduler in
                for _ in 0..<3 {
                    _ = try await scheduler.perform(on: ["bb"], priority: .refresh, budget: .seconds(600)) { _ in
                        try await blockbook.address(address)
                    }
                }
            }
            let log = await harness.simnet.stats().log.filter { $0.family == .blockbook }
            let limited = try #require(log.firstIndex { $0.status == 429 })
            #expect(log[limited].retryAfter == 7)
            let next = try #require(log.indices.first { $0 > limited })
            #expect(log[next].t - log[limited].t >= 7, "the next request came \(log[next].t - log[limited].t) s later")
            #expect(log.filter { $0.status == 200 }.count == 3)
        }
    }

    @Test func failsOverWhileThePrimaryIsDownAndReturnsWhenItRecovers() async throws {
        let clock = ManualClock()
        let lines = LogLines()
        try await Harness.with(Self.configuration(clock)) { harness in
            await harness.simnet.setFaults(
                family: .blockbook,
                FaultConfiguration(rate: 1, kinds: [.serverError], statuses: [503])
            )
            let providers: [String: any ChainProvider] = ["bb": harness.blockbook(), "bci": harness.rawaddr()]
            let address = try #require(await harness.simnet.addresses().first?.address)
            let truth = try #require(await harness.simnet.addresses().first?.confirmedBalanceSat)
            let limits = [
                "bb": RateLimit(requests: 600, per: .seconds(60)), "bci": RateLimit(requests: 600, per: .seconds(60)),
            ]
            let policy = SchedulerPolicy(maxAttempts: 6, breakerThreshold: 3, breakerCoolDown: .seconds(30))
            try await Self.withScheduler(limits, clock: clock, policy: policy, logger: lines) { scheduler in
                for _ in 0..<20 {
                    let summary = try await scheduler.perform(
                        on: ["bb", "bci"],
                        priority: .refresh,
                        budget: .seconds(120)
                    ) { id in
                        try await providers[id]!.address(address)
                    }
                    #expect(summary.balanceSat == truth)
                }
                let before = await harness.simnet.stats().families[.rawaddr]?.requests ?? 0
                #expect(before >= 17)
                // The primary recovers; after the breaker's cool-down, work returns to it.
                await harness.simnet.setFaults(family: .blockbook, nil)
                clock.advance(by: .seconds(31))
                for _ in 0..<5 {
                    _ = try await scheduler.perform(on: ["bb", "bci"], priority: .refresh, budget: .seconds(120)) {
                        id in
                        try await providers[id]!.address(address)
                    }
                }
                let after = await harness.simnet.stats().families[.rawaddr]?.requests ?? 0
                #expect(after == before, "the secondary still got traffic after the primary recovered")
            }
            let blockbookOK = await harness.simnet.stats().log.filter { $0.family == .blockbook && $0.status == 200 }
            #expect(blockbookOK.count == 5)
        }
        #expect(lines.count(prefix: "failing over") == 1, "\(lines.all)")
        #expect(lines.count(prefix: "provider degraded") == 1)
        #expect(lines.count(prefix: "provider recovered") == 1)
        #expect(lines.count(prefix: "traffic back on primary") == 1)
    }
}

import BlockbookAdapter
import Foundation
import Logging
import Testing
import WatcherCore
import WatcherScheduler
import WatcherSimnet
import WatcherTesting

/// The rate limiter against the simnet's own limiter, each on its own wall clock (no shared simulated time, so
/// the jitter between two clocks and the network is real): the watcher never trips the server's limit, resumes
/// after a 429 with one request, and learns a server limit lower than its configured one.
@Suite(.serialized)
struct WallClockRateLimitTests {
    static var configuration: SimnetConfiguration {
        var configuration = SimnetConfiguration(seed: 17, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 17, fundedAddressCount: 50)
        return configuration
    }

    /// Runs 8 workers asking address summaries through a wall-clock scheduler for `seconds`.
    static func hammer(
        _ harness: Harness,
        limit: RateLimit,
        seconds: Double,
        logger: LogLines = LogLines()
    ) async throws {
        let addresses = await harness.simnet.addresses().map(\.address)
        let blockbook = harness.blockbook(timeout: .seconds(5))
        let scheduler = Scheduler(limits: ["bb": limit], clock: ContinuousClock(), logger: logger.logger)
        let end = ContinuousClock.now + .seconds(seconds)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await scheduler.run() }
            try await withThrowingTaskGroup(of: Void.self) { workers in
                for worker in 0..<8 {
                    workers.addTask {
                        var index = worker
                        while ContinuousClock.now < end {
                            let address = addresses[index % addresses.count]
                            // No grant after the end: the server's budget is counted over exactly `seconds`.
                            let budget = min(.seconds(5), ContinuousClock.now.duration(to: end))
                            _ = try? await scheduler.perform(on: ["bb"], priority: .refresh, budget: budget) {
                                _ in try await blockbook.address(address)
                            }
                            index += 8
                        }
                    }
                }
                try await workers.waitForAll()
            }
            group.cancelAll()
        }
    }

    @Test func afterA429ItWaitsRetryAfterAndResumesWithOneRequest() async throws {
        let limit = RateLimit(requests: 10, per: .seconds(5), burst: 10, concurrency: 4)
        try await Harness.with(Self.configuration) { harness in
            // The server allows less than the watcher believes, so the first burst meets a 429.
            await harness.simnet.setRateLimit(family: .blockbook, RateLimit(requests: 4, per: .seconds(5), burst: 2))
            await harness.simnet.resetStats()
            let logger = LogLines()
            try await Self.hammer(harness, limit: limit, seconds: 25, logger: logger)
            let log = await harness.simnet.stats().log.filter { $0.family == .blockbook }
            let refusals = log.enumerated().filter { $0.element.status == 429 }
            #expect(!refusals.isEmpty)
            // After each refusal's Retry-After, the next request goes alone: no second one within 200 ms of it.
            for (index, refusal) in refusals {
                guard let retryAfter = refusal.retryAfter else { continue }
                let later = log[(index + 1)...].filter { $0.t >= refusal.t + Double(retryAfter) - 0.05 }
                guard let first = later.first else { continue }
                let crowd = later.dropFirst().filter { $0.t < first.t + 0.2 }
                #expect(crowd.isEmpty, "\(crowd.count + 1) requests at once after a pause")
            }
            // It learned the lower limit: few refusals once it had, and it said so once in the log.
            let lastTen = log.filter { $0.t >= (log.last?.t ?? 0) - 10 }
            #expect(lastTen.filter { $0.status == 429 }.count <= 2, "still refused in the last 10 s")
            let learned = logger.all.filter { $0.hasPrefix("provider refuses requests below its configured rate") }
            #expect(learned.count == 1, "\(learned.joined(separator: "\n"))")
        }
    }

    /// Issues 23 and 33 (item 15): a Blockbook far stricter than its configured limit (it allows 1 request per 7 s;
    /// the config says 100 a minute, with the default burst of 100 and 4 at a time). The lane learns the server's
    /// rate from its refusals: from 15 s on, no 30 s of the run holds more than 2 refusals, and the waiting requests
    /// go one at a time over the refill (never two within a second of each other) instead of herding after each
    /// pause. Converged, not starved: at least 5 of the 7 requests the server allows in 45 s are served.
    @Test func convergesOnAServerFarStricterThanConfigured() async throws {
        let limit = RateLimit(requests: 100, per: .seconds(60))
        try await Harness.with(Self.configuration) { harness in
            await harness.simnet.setRateLimit(family: .blockbook, RateLimit(requests: 1, per: .seconds(7), burst: 1))
            await harness.simnet.resetStats()
            try await Self.hammer(harness, limit: limit, seconds: 45)
            let log = await harness.simnet.stats().log.filter { $0.family == .blockbook }
            let start = try #require(log.first?.t)
            let settled = log.filter { $0.t >= start + 15 }
            let served = log.filter { $0.status == 200 }.count
            let timeline = log.map { "\(String(format: "%.2f", $0.t - start)) \($0.status)" }
            print("stricter server: \(log.count) requests, \(served) served, \(settled.count) from 15 s on")
            print("stricter server timeline: \(timeline.joined(separator: ", "))")
            // Every 30 s window from 15 s on (each starting at one of its requests, where a window's count peaks).
            let worst =
                settled.map { first in
                    settled.filter { $0.status == 429 && $0.t >= first.t && $0.t < first.t + 30 }.count
                }.max() ?? 0
            #expect(worst <= 2, "\(worst) × 429 within 30 s after the first 15 s")
            let herded = zip(settled, settled.dropFirst()).filter { $1.t - $0.t < 1 }.count
            #expect(herded == 0, "\(herded) requests less than a second after the one before, from 15 s on")
            #expect(served >= 5, "only \(served) served of the server's 7")
        }
    }

    /// Issue 23: with the limit configured right (10 per 5 s on both sides) 30 s of saturating demand never trips
    /// the server's limit and uses at least 90% of its budget (10 + 30 s × 2/s = 70). Half a minute asks the same
    /// steady rate of the lane as a minute did (at least 88% of 2/s after the burst), in half the serialized phase's
    /// time; it also stands for the 20 s run that only asked 84%.
    @Test func usesNinetyPercentOfACorrectBudgetWithoutA429() async throws {
        let limit = RateLimit(requests: 10, per: .seconds(5), burst: 10, concurrency: 4)
        try await Harness.with(Self.configuration) { harness in
            await harness.simnet.setRateLimit(family: .blockbook, limit)
            await harness.simnet.resetStats()
            try await Self.hammer(harness, limit: limit, seconds: 30)
            let stats = await harness.simnet.stats().families[.blockbook]
            let refused = stats?.rateLimited ?? 0
            let served = (stats?.requests ?? 0) - refused
            print("correct limit: \(served) of 70 served (\(served * 1000 / 70)‰), \(refused) × 429")
            #expect(refused == 0, "\(refused) × 429 drawn on the wall clock")
            #expect(served * 10 >= 70 * 9, "only \(served) of the server's 70 used")
        }
    }
}

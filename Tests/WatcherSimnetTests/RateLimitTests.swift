import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// Token-bucket rate limits per family, with time frozen through an injected clock.
@Suite("Rate limits")
struct RateLimitTests {
    /// Where the manual clock's wall time starts (unix seconds).
    static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func exactlyBurstRequestsPassThenEvery429CarriesRetryAfter() async throws {
        let clock = ManualClock()
        let configuration = SimnetConfiguration(
            seed: 42,
            rateLimits: [.blockbook: RateLimit(requests: 20, per: .seconds(60), burst: 20)],
            clock: clock.timeSource(epoch: Self.epoch)
        )
        try await Simnet.with(configuration) { simnet in
            let answers = try await withThrowingTaskGroup(of: HTTPAnswer.self) { group in
                for index in 0..<100 {
                    group.addTask { try await SimnetHarness.get(simnet, "/api/v2/block-index/\(800_000 + index % 6)") }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == 200 }.count == 20)
            let limited = answers.filter { $0.status == 429 }
            #expect(limited.count == 80)
            #expect(limited.allSatisfy { $0.header("Retry-After") == "3" })
            #expect(limited.allSatisfy { $0.text == #"{"error":"rate limit exceeded"}"# })

            let stats = await simnet.stats()
            #expect(stats.families[.blockbook]?.requests == 100)
            #expect(stats.families[.blockbook]?.rateLimited == 80)
            #expect(stats.families[.blockbook]?.endpoints["/api/v2/block-index"] == 100)
            #expect(stats.log.filter { $0.status == 429 }.allSatisfy { $0.retryAfter == 3 })
            #expect(stats.log.count == 100)

            // Other families are not limited.
            #expect(try await SimnetHarness.get(simnet, "/latestblock").status == 200)

            // One token comes back every 3 s of (injected) time.
            clock.advance(by: .seconds(3))
            #expect(try await SimnetHarness.get(simnet, "/api/").status == 200)
            #expect(try await SimnetHarness.get(simnet, "/api/").status == 429)
        }
    }

    @Test func controlAPISetsAndClearsLimitsWithTheFamilysRealBody() async throws {
        let clock = ManualClock()
        try await Simnet.with(SimnetConfiguration(seed: 42, clock: clock.timeSource(epoch: Self.epoch))) { simnet in
            let set = try await SimnetHarness.post(
                simnet,
                "/control/ratelimit",
                json: #"{"family":"rawaddr","requests":2,"per":"10s","burst":2}"#
            )
            #expect(set.status == 200)
            #expect(try await SimnetHarness.get(simnet, "/latestblock").status == 200)
            #expect(try await SimnetHarness.get(simnet, "/latestblock").status == 200)
            let limited = try await SimnetHarness.get(simnet, "/latestblock")
            #expect(limited.status == 429)
            #expect(try limited.body == (SimnetHarness.fixture("rawaddr/error_rate_limited.txt")))
            #expect(limited.header("Retry-After") == "5")

            let stats = try await SimnetHarness.get(simnet, "/control/stats").json()
            #expect(stats["families"]?["rawaddr"]?["rateLimited"]?.int == 1)
            let last = try #require(stats["log"]?.arrayValue?.last)
            #expect(
                last["status"]?.int == 429 && last["retryAfter"]?.int == 5 && last["family"]?.stringValue == "rawaddr"
            )
            #expect(last["t"]?.number == Self.epoch.timeIntervalSince1970 + clock.now.offset.seconds)

            let off = try await SimnetHarness.post(
                simnet,
                "/control/ratelimit",
                json: #"{"family":"rawaddr","requests":0}"#
            )
            #expect(off.status == 200)
            #expect(try await SimnetHarness.get(simnet, "/latestblock").status == 200)
        }
    }
}

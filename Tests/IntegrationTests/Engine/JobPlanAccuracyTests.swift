import AsyncHTTPClient
import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherSimnet
import WatcherStorage

@testable import WatcherApp

/// The plan `watcher check` prints is what the engine does: the requests each provider really receives (counted
/// by the simnet, on the wall clock) match the plan's figures within 10%.
@Suite(.serialized)
struct JobPlanAccuracyTests {
    @Test func requestsPerProviderMatchThePlan() async throws {
        let data = EngineHarness.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await Harness.with(EngineHarness.quiet) { harness in
            let simnet = harness.simnet
            let addresses = [
                "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
            ]
            let list = addresses.map { "\"\($0)\"" }.joined(separator: ", ")
            let config = try EngineHarness.config(
                simnet,
                data,
                watches: """
                    [{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
                     {"id": "wallet", "type": "address", "providers": ["bb"], "every": "2s", "addresses": [\(list)]},
                     {"id": "px", "type": "price", "providers": ["cd"], "every": "1s"}]
                    """,
                extraProviders:
                    #", {"id": "cd", "type": "coindesk", "options": {"url": "\#(simnet.baseURL)"}, "rateLimit": {"requests": 600, "per": "1m"}}"#
            )
            let settings = Engine.Settings(healthInterval: .seconds(4))
            let plan = JobPlan(config: config, settings: settings.plan)
            let expected = plan.demandByProvider
            let window: Duration = .seconds(20)
            let (blockbook, coindesk) = try await EngineHarness.running(
                config,
                client: harness.client,
                settings: settings
            ) { _ in
                // Past the start-up round, then one window of steady state on the wall clock.
                try await Task.sleep(for: .seconds(3))
                let before = await simnet.stats().families
                let started = ContinuousClock.now
                try await Task.sleep(for: window)
                let after = await simnet.stats().families
                let elapsed = (ContinuousClock.now - started).seconds
                func rate(_ family: ProviderFamily) -> Double {
                    Double((after[family]?.requests ?? 0) - (before[family]?.requests ?? 0)) / elapsed * 3600
                }
                return (rate(.blockbook), rate(.coindesk))
            }
            // No block is mined: the plan's ~6 headers an hour are not due in 20 s.
            let plannedBlockbook = (expected["bb"] ?? 0) - 6
            let plannedCoindesk = expected["cd"] ?? 0
            #expect(
                abs(blockbook - plannedBlockbook) <= plannedBlockbook * 0.1,
                "bb: \(blockbook)/h vs plan \(plannedBlockbook)/h"
            )
            #expect(
                abs(coindesk - plannedCoindesk) <= plannedCoindesk * 0.1,
                "cd: \(coindesk)/h vs plan \(plannedCoindesk)/h"
            )
            print(
                "plan vs actual (requests/h): bb \(Int(plannedBlockbook)) vs \(Int(blockbook)), cd \(Int(plannedCoindesk)) vs \(Int(coindesk))"
            )
        }
    }
}

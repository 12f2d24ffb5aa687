import AsyncHTTPClient
import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// One agreed tip (`agree: 2`): three simnets started with the same seed and driven by the same control calls, but
/// not at the same moment, so one is ahead, one lags, or one stays on a stale fork for a while. Confirmations are
/// counted from the highest block two of them share; a provider more than `maxLag` behind, or on another chain at
/// the shared height, is reported once with `provider.degraded` and once with `provider.recovered` when it agrees
/// again. On the wall clock, against real HTTP.
@Suite(.serialized)
struct AgreedTipTests {
    static let followed = AgreeHarness.honestAddress

    static func config(_ simnets: [Simnet], _ data: String) throws -> WatcherConfig {
        // Polled (`"websocket": false`): the tips are read every round, not only on a pushed block, so the rounds
        // the test counts come without mining.
        let providers = Harness.blockbookProviders(["h1", "h2", "slow"], simnets, websocket: false)
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [\(providers)],
             "watches": [
               {"id": "chain", "type": "blocks", "providers": ["h1", "h2"], "every": "1s"},
               {"id": "shop", "type": "address", "providers": ["slow", "h1", "h2"], "every": "1s", "agree": 2,
                "maxLag": 2, "strategy": "poll", "confirmations": [1, 2, 3], "addresses": ["\(followed)"]}],
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    @Test func confirmationsCountFromTheSharedTipAndLaggingOrForkedProvidersAreSetAside() async throws {
        try await Harness.withThree { simnets, client, data in
            try await run(simnets, client: client, data: data)
        }
    }

    /// The `provider.*` events about `provider`, in order, as `type: reason`.
    static func reports(_ store: Store, _ provider: String) throws -> [String] {
        try EngineHarness.events(store).filter {
            $0["type"]?.stringValue?.hasPrefix("provider.") == true && $0["data"]?["provider"] == .string(provider)
                && $0["type"] != .string("provider.disagreed")
        }.map { "\($0["type"]?.stringValue ?? ""): \($0["data"]?["reason"]?.stringValue ?? "")" }
    }

    func run(_ simnets: [Simnet], client: HTTPClient, data: String) async throws {
        let (h1, h2, slow) = (simnets[0], simnets[1], simnets[2])
        let config = try Self.config(simnets, data)
        try await EngineHarness.running(config, client: client) { store in
            try await eventually("the baseline") {
                try store.read { try $0.addressState(chain: "btc", address: Self.followed)?.summary } != nil
            }
            let paid = try await AgreeHarness.each(simnets) { try await $0.pay(to: Self.followed, amountSat: 50_000) }
            let mined = try await AgreeHarness.each(simnets) { try await $0.mine() }
            #expect(Set(paid).count == 1)
            #expect(Set(mined.map { $0.map(\.hash) }).count == 1)
            let block = mined[0][0]
            try await EngineHarness.event(store, "address.tx.confirmed", timeout: .seconds(60)) {
                $0["txid"] == .string(paid[0])
            }

            // One provider ahead: its tip is not the agreed one. Several rounds later (each asks every tip), the
            // stored tip is still the block two share, and no second confirmation was counted.
            _ = try await h1.mine(count: 2)
            let asked = await h2.stats().families[.blockbook]?.requests ?? 0
            try await eventually(timeout: .seconds(60), "five more rounds of tips") {
                await h2.stats().families[.blockbook]?.requests ?? 0 >= asked + 5
            }
            #expect(try store.read { try $0.tip(chain: "btc") } == block)
            let early = try AgreeHarness.events(store, "address.tx.confirmations").filter {
                $0["data"]?["confirmations"] != .number("1")
            }
            #expect(early.isEmpty, "\(early)")
            _ = try await AgreeHarness.each([h2, slow]) { try await $0.mine(count: 2) }
            try await EngineHarness.event(store, "address.tx.confirmations", timeout: .seconds(60)) {
                $0["txid"] == .string(paid[0]) && $0["confirmations"] == .number("3")
            }
            #expect(try Self.reports(store, "slow").isEmpty)

            // Lagging: three blocks behind with maxLag 2, then caught up.
            _ = try await AgreeHarness.each([h1, h2]) { try await $0.mine(count: 3) }
            try await eventually(timeout: .seconds(60), "slow set aside as lagging") {
                try Self.reports(store, "slow") == ["provider.degraded: lagging 3 blocks behind"]
            }
            _ = try await slow.mine(count: 3)
            try await eventually(timeout: .seconds(60), "slow recovered") {
                try Self.reports(store, "slow").last == "provider.recovered: agrees with the other providers again"
            }

            // A stale fork: the honest two replace their tip, the third keeps the old block at the same height.
            let replaced = try await AgreeHarness.each([h1, h2]) { try await $0.reorg(depth: 1) }
            #expect(replaced[0].map(\.newHash) == replaced[1].map(\.newHash))
            let height = try #require(replaced[0].first?.height)
            try await eventually(timeout: .seconds(60), "slow set aside on its fork") {
                try Self.reports(store, "slow").last == "provider.degraded: on another chain at height \(height)"
            }
            let agreedTip = await h1.tip()
            try await eventually(timeout: .seconds(60), "the honest fork stored") {
                try store.read { try $0.tip(chain: "btc") } == agreedTip
            }
            _ = try await slow.reorg(depth: 1)
            #expect(await slow.tip() == agreedTip)
            try await eventually(timeout: .seconds(60), "slow recovered from its fork") {
                try Self.reports(store, "slow").last == "provider.recovered: agrees with the other providers again"
            }
            // Each change once: degraded, recovered, degraded, recovered.
            let reported = try Self.reports(store, "slow")
            #expect(reported.count == 4, "\(reported)")
        }
    }
}

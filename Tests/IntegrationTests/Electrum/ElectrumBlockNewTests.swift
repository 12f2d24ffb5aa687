import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// An Electrum server gives a block's header, not its transactions (issue 33, item 8): `block.new` says the count is
/// unknown (`txCount: null`), never 0 for a block that holds transactions.
@Suite(.serialized)
struct ElectrumBlockNewTests {
    @Test(arguments: [ElectrumSettings.Personality.electrs, .fulcrum])
    func aBlockOnElectrumHasNoTxCountRatherThanZero(_ personality: ElectrumSettings.Personality) async throws {
        try await Harness.withData(ElectrumHarness.simnet(personality)) { simnet, client, data in
            let port = try #require(simnet.electrumPort)
            let json = """
                {"storage": {"path": "\(data)"},
                 "providers": [{"id": "el", "type": "electrum", "chain": "btc",
                                "options": {"url": "tcp://127.0.0.1:\(port)", "timeout": "10s"}}],
                 "watches": [{"id": "tip", "type": "blocks", "providers": ["el"], "every": "1s"}],
                 "sinks": []}
                """
            let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
            try await EngineHarness.running(config, client: client) { store in
                try await eventually(timeout: .seconds(60), "the first tip stored") {
                    try store.read { try $0.tip(chain: "btc") } != nil
                }
                _ = try await simnet.pay(to: EngineHarness.followed, amountSat: 12_000)
                _ = try await simnet.pay(to: EngineHarness.followed, amountSat: 13_000)
                let mined = try await simnet.mine(count: 1)
                let block = await simnet.chain().block(height: mined[0].height)
                #expect((block?.txCount ?? 0) >= 3)
                let event = try await EngineHarness.event(store, "block.new", timeout: .seconds(60)) {
                    $0["hash"] == .string(mined[0].hash)
                }
                let data = try #require(event["data"])
                #expect(data.members?.map(\.key).contains("txCount") == true, "\(event)")
                #expect(data["txCount"] == .null, "\(event)")
            }
        }
    }
}

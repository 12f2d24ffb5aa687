import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherStorage
import WatcherTesting

@testable import WatcherApp
@testable import WatcherSimnet

/// The engine on an Electrum server with quirks: an address the server will not serve does not stop the others,
/// and an index that goes away (electrs's -32603) pauses the watch, which carries on when the index is back.
@Suite
struct ElectrumQuirkEngineTests {
    static let payee = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"

    static func config(port: Int, data: String, addresses: [String]) throws -> WatcherConfig {
        let list = addresses.map { "\"\($0)\"" }.joined(separator: ",")
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [{"id": "el", "type": "electrum", "chain": "btc",
                            "options": {"url": "tcp://127.0.0.1:\(port)", "timeout": "30s"}}],
             "watches": [{"id": "shop", "type": "address", "providers": ["el"], "every": "1s",
                          "addresses": [\(list)]}],
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    static func simnet(_ settings: ElectrumSettings, seed: UInt64) -> SimnetConfiguration {
        var configuration = SimnetConfiguration(seed: seed, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: seed, txsPerBlock: 20, fundedAddressCount: 20)
        configuration.electrumPort = 0
        configuration.electrum = settings
        return configuration
    }

    @Test("ElectrumX refusing one address's history: the other followed address's payment is still announced")
    func historyTooLarge() async throws {
        let data = EngineHarness.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await Harness.with(Self.simnet(ElectrumSettings(personality: .electrumx), seed: 71)) { harness in
            let simnet = harness.simnet
            // Every funded address is past the limit; the payer is a fresh address, funded in a block, so the
            // payment's own transactions stay readable.
            let long = try #require(await simnet.addresses().max { $0.confirmedTxCount < $1.confirmedTxCount })
            #expect(long.confirmedTxCount > 5)
            let payer = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
            try await simnet.pay(to: payer, amountSat: 200_000)
            _ = try await simnet.mine(count: 1)
            var settings = await simnet.electrumSettings()
            settings.maxHistory = 5
            await simnet.setElectrumSettings(settings)
            let port = try #require(simnet.electrumPort)
            let config = try Self.config(port: port, data: data, addresses: [long.address, Self.payee])
            try await EngineHarness.running(config, client: harness.client) { store in
                let txid = try await simnet.pay(to: Self.payee, amountSat: 33_000, from: payer)
                _ = try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(120)) {
                    $0["txid"] == .string(txid)
                }
            }
        }
    }

    @Test("an index unavailable mid-run: nothing is announced meanwhile, the payment is once the index is back")
    func indexUnavailableMidRun() async throws {
        let data = EngineHarness.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await Harness.with(Self.simnet(ElectrumSettings(), seed: 72)) { harness in
            let simnet = harness.simnet
            let port = try #require(simnet.electrumPort)
            let config = try Self.config(port: port, data: data, addresses: [Self.payee])
            try await EngineHarness.running(config, client: harness.client) { store in
                try await eventually(timeout: .seconds(120), "the payee subscribed") {
                    await simnet.stats().families[.electrum]?.endpoints["blockchain.scripthash.subscribe"] ?? 0 >= 1
                }
                var settings = await simnet.electrumSettings()
                settings.indexUnavailable = true
                await simnet.setElectrumSettings(settings)
                let asked = { await simnet.stats().families[.electrum]?.endpoints ?? [:] }
                let before = await asked()
                let txid = try await simnet.pay(to: Self.payee, amountSat: 34_000)
                // The watcher asks (the push's notification, the watch's poll) and is refused.
                try await eventually(timeout: .seconds(120), "an address read refused") {
                    let now = await asked()
                    return ["blockchain.scripthash.get_history", "blockchain.scripthash.get_balance"].contains {
                        (now[$0] ?? 0) > (before[$0] ?? 0)
                    }
                }
                let announced = try EngineHarness.events(store).contains { $0["data"]?["txid"] == .string(txid) }
                #expect(!announced, "nothing can be read while the index is unavailable")
                settings.indexUnavailable = false
                await simnet.setElectrumSettings(settings)
                _ = try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(120)) {
                    $0["txid"] == .string(txid)
                }
            }
        }
    }
}

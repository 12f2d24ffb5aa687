import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherStorage
import WatcherTesting

@testable import WatcherApp
@testable import WatcherSimnet

/// The engine on an Electrum server's scripthash push (the simnet's Electrum face, electrs personality), on the wall
/// clock: 10,000 followed addresses are subscribed on one connection, mempool payments to them are announced through
/// status notifications, and a pushed header announces a block. A wall-clock suite (Makefile WALL_CLOCK_TESTS): it
/// prints its figures (docs/benchmarks.md) and asserts only generous deadlines.
@Suite(.serialized)
struct ElectrumPushEngineTests {
    @Test func tenThousandAddressesSubscribedAndMempoolPaymentsPushed() async throws {
        var configuration = SimnetConfiguration(seed: 67, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 67, txsPerBlock: 200, fundedAddressCount: 50)
        configuration.electrumPort = 0
        var rng = SeededGenerator(seed: 9_067)
        let followed = (0..<10_000).map { _ in SimAddress.random(.p2wpkh, using: &rng).string }
        let data = EngineHarness.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await Harness.with(configuration) { harness in
            let simnet = harness.simnet
            let port = try #require(simnet.electrumPort)
            let list = followed.map { "\"\($0)\"" }.joined(separator: ",")
            let json = """
                {"storage": {"path": "\(data)"},
                 "providers": [{"id": "el", "type": "electrum", "chain": "btc",
                                "options": {"url": "tcp://127.0.0.1:\(port)", "timeout": "60s"}}],
                 "watches": [
                   {"id": "tip", "type": "blocks", "providers": ["el"], "every": "5s"},
                   {"id": "shop", "type": "address", "providers": ["el"], "addresses": [\(list)]}
                 ],
                 "sinks": []}
                """
            let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
            let plan = JobPlan(config: config)
            #expect(plan.jobs.contains { $0.work == .push(chain: "btc", addresses: 1_000_000) })
            await simnet.resetStats()
            let started = ContinuousClock.now
            try await EngineHarness.running(config, client: harness.client) { store in
                try await eventually(timeout: .seconds(300), "10,000 scripthash subscriptions") {
                    await simnet.stats().families[.electrum]?.endpoints["blockchain.scripthash.subscribe"] ?? 0
                        >= 10_000
                }
                let subscribed = ContinuousClock.now - started
                print("electrum push: 10,000 scripthashes subscribed \(subscribed) after the engine started")
                var latencies: [Duration] = []
                var paid: [String] = []
                for index in 0..<10 {
                    let address = followed[index * 997]
                    let sent = ContinuousClock.now
                    let txid = try await simnet.pay(to: address, amountSat: Int64(20_000 + index))
                    try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(60)) {
                        $0["txid"] == .string(txid)
                    }
                    latencies.append(ContinuousClock.now - sent)
                    paid.append(txid)
                }
                print("electrum push: mempool latencies \(latencies.map { "\($0)" }.joined(separator: ", "))")
                let mined = try await simnet.mine(count: 1)
                let blockSent = ContinuousClock.now
                try await EngineHarness.event(store, "block.new", timeout: .seconds(60)) {
                    $0["hash"] == .string(mined[0].hash)
                }
                print("electrum push: block announced \(ContinuousClock.now - blockSent) after it was mined")
                try await eventually(timeout: .seconds(120), "the block's payments confirmed") {
                    let confirmed = Set(
                        try EngineHarness.events(store).filter { $0["type"] == .string("address.tx.confirmed") }
                            .compactMap { $0["data"]?["txid"]?.stringValue }
                    )
                    return paid.allSatisfy(confirmed.contains)
                }
                let stats = await simnet.stats().families[.electrum]
                print("electrum push: requests by method \(stats?.endpoints.sorted { $0.key < $1.key } ?? [])")
            }
        }
    }
}

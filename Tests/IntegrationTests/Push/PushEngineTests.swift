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

/// The engine on Blockbook's websocket, on the wall clock behind a 20-requests/min limit: mempool payments to
/// 1,000 followed addresses (all one connection covers; the subscription is a 45 KB frame) are announced within
/// 5 s, a pushed block replaces the tip poll, and the block's payments follow by the scan.
@Suite(.serialized)
struct PushEngineTests {
    @Test func mempoolPaymentsToAThousandAddressesWithinFiveSeconds() async throws {
        var configuration = SimnetConfiguration(seed: 59, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 59, txsPerBlock: 200, fundedAddressCount: 50)
        var rng = SeededGenerator(seed: 9_059)
        let followed = (0..<1000).map { _ in SimAddress.random(.p2wpkh, using: &rng).string }
        let data = EngineHarness.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await Harness.with(configuration) { harness in
            let simnet = harness.simnet
            await simnet.setRateLimit(family: .blockbook, RateLimit(requests: 20, per: .seconds(60), burst: 20))
            let list = followed.map { "\"\($0)\"" }.joined(separator: ",")
            let json = """
                {"storage": {"path": "\(data)"},
                 "providers": [{"id": "bb", "type": "blockbook",
                                "options": {"url": "\(simnet.baseURL)", "timeout": "10s", "websocket": true},
                                "rateLimit": {"requests": 20, "per": "1m", "burst": 20, "concurrency": 2}}],
                 "watches": [
                   {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "5s"},
                   {"id": "shop", "type": "address", "providers": ["bb"], "addresses": [\(list)]}
                 ],
                 "sinks": []}
                """
            let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
            let plan = JobPlan(config: config)
            #expect(plan.jobs.contains { $0.work == .push(chain: "btc", addresses: 1000) })
            try await EngineHarness.running(config, client: harness.client) { store in
                try await eventually(timeout: .seconds(60), "the websocket subscribed") {
                    simnet.websocketStats().open == 1
                }
                let start = await simnet.tip()
                try await EngineHarness.event(store, "block.new", where: { $0["hash"] == .string(start.hash) })
                var latencies: [Duration] = []
                var paid: [String] = []
                for index in 0..<10 {
                    let address = followed[index * 97]
                    let sent = ContinuousClock.now
                    let txid = try await simnet.pay(to: address, amountSat: Int64(20_000 + index))
                    try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(5)) {
                        $0["txid"] == .string(txid)
                    }
                    latencies.append(ContinuousClock.now - sent)
                    paid.append(txid)
                }
                print("push: mempool latencies \(latencies.map { "\($0)" }.joined(separator: ", "))")
                // The tip job polls only when a block is pushed (or every 5 minutes), not every 5 s.
                let before = await simnet.stats().families[.blockbook]?.endpoints["/api/v2/block-index"] ?? 0
                try await Task.sleep(for: .seconds(12))
                let idle = (await simnet.stats().families[.blockbook]?.endpoints["/api/v2/block-index"] ?? 0) - before
                #expect(idle == 0, "\(idle) tip polls in 12 s while push was connected")
                let mined = try await simnet.mine(count: 1)
                let blockSent = ContinuousClock.now
                try await EngineHarness.event(store, "block.new", timeout: .seconds(10)) {
                    $0["hash"] == .string(mined[0].hash)
                }
                print("push: block announced \(ContinuousClock.now - blockSent) after it was mined")
                try await eventually(timeout: .seconds(30), "the block's payments confirmed") {
                    let confirmed = Set(
                        try EngineHarness.events(store).filter { $0["type"] == .string("address.tx.confirmed") }
                            .compactMap { $0["data"]?["txid"]?.stringValue }
                    )
                    return paid.allSatisfy(confirmed.contains)
                }
                #expect(await simnet.stats().families[.blockbook]?.rateLimited == 0)
            }
        }
    }

    @Test func aDroppedConnectionReconnectsAndCatchesUp() async throws {
        var configuration = SimnetConfiguration(seed: 61, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 61, txsPerBlock: 20, fundedAddressCount: 20)
        var rng = SeededGenerator(seed: 9_061)
        let followed = (0..<5).map { _ in SimAddress.random(.p2wpkh, using: &rng).string }
        let data = EngineHarness.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await Harness.with(configuration) { harness in
            let simnet = harness.simnet
            let list = followed.map { "\"\($0)\"" }.joined(separator: ",")
            // Polled once an hour: between connections, only the catch-up round at the reconnect sees a payment.
            let json = """
                {"storage": {"path": "\(data)"},
                 "providers": [{"id": "bb", "type": "blockbook",
                                "options": {"url": "\(simnet.baseURL)", "timeout": "2s", "websocket": true},
                                "rateLimit": {"requests": 6000, "per": "1m", "burst": 100, "concurrency": 4}}],
                 "watches": [
                   {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
                   {"id": "shop", "type": "address", "providers": ["bb"], "every": "1h", "strategy": "poll",
                    "addresses": [\(list)]}
                 ],
                 "sinks": []}
                """
            let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
            try await EngineHarness.running(config, client: harness.client) { store in
                try await eventually(timeout: .seconds(60), "subscribed, every address observed") {
                    let observed = try store.read { try $0.addressStates(chain: "btc") }.filter { $0.summary != nil }
                    return simnet.websocketStats().open == 1 && observed.count == followed.count
                }
                // Down: a payment and a block go by without a push.
                simnet.dropWebSockets()
                try await eventually("the drop") { simnet.websocketStats().open == 0 }
                let missed = try await simnet.pay(to: followed[2], amountSat: 33_000)
                try await eventually(timeout: .seconds(20), "the reconnect") {
                    simnet.websocketStats().connections == 2 && simnet.websocketStats().open == 1
                }
                try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(10)) {
                    $0["txid"] == .string(missed)
                }
                // And pushes flow again.
                let pushed = try await simnet.pay(to: followed[4], amountSat: 44_000)
                try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(5)) {
                    $0["txid"] == .string(pushed)
                }
            }
        }
    }

    /// Issue 33 item 16: the websocket is on by default, and polling is the fallback. Against a Blockbook whose
    /// `/websocket` is refused (404, as behind a proxy that does not pass the upgrade), a config that does not
    /// mention the websocket still announces a mempool payment, its block and its confirmation, by polling, and the
    /// log says once that the push is down.
    @Test func aRefusedWebsocketFallsBackToPolling() async throws {
        var configuration = SimnetConfiguration(seed: 62, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 62, txsPerBlock: 5, fundedAddressCount: 10)
        configuration.websocket = false
        var rng = SeededGenerator(seed: 9_062)
        let followed = SimAddress.random(.p2wpkh, using: &rng).string
        let data = EngineHarness.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await Harness.with(configuration) { harness in
            let simnet = harness.simnet
            let json = """
                {"storage": {"path": "\(data)"},
                 "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "\(simnet.baseURL)", "timeout": "2s"},
                                "rateLimit": {"requests": 6000, "per": "1m", "burst": 100, "concurrency": 4}}],
                 "watches": [
                   {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
                   {"id": "shop", "type": "address", "providers": ["bb"], "every": "1s", "addresses": ["\(followed)"]}
                 ],
                 "sinks": []}
                """
            let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
            #expect(JobPlan(config: config).jobs.contains { $0.name == "push btc" })
            try await EngineHarness.running(config, client: harness.client) { store in
                try await eventually(timeout: .seconds(30), "the baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: followed)?.summary } != nil
                }
                let txid = try await simnet.pay(to: followed, amountSat: 25_000)
                try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(30)) {
                    $0["txid"] == .string(txid)
                }
                let mined = try #require(try await simnet.mine(count: 1).last)
                try await EngineHarness.event(store, "block.new", timeout: .seconds(30)) {
                    $0["hash"] == .string(mined.hash)
                }
                try await EngineHarness.event(store, "address.tx.confirmed", timeout: .seconds(30)) {
                    $0["txid"] == .string(txid)
                }
                #expect(simnet.websocketStats().connections == 0)
            }
        }
    }
}

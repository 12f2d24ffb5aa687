import AsyncHTTPClient
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

/// Cost per block, not per address: 1,000 followed addresses behind a Blockbook that allows 20 requests a minute
/// (the public instances' limit), blocks of 2,500 transactions, payments to random followed addresses in every
/// block — on the wall clock, against the simnet's own limiter. A rate claim on the wall clock: it runs in the
/// serialized phase (`WALL_CLOCK_TESTS` in the Makefile), where the parallel suites cannot starve it.
@Suite(.serialized)
struct BlockScanTests {
    static let limit = RateLimit(requests: 20, per: .seconds(60), burst: 5, concurrency: 2)

    @Test func everyPaymentIsAnnouncedBeforeTheNextBlockWithoutA429() async throws {
        var configuration = SimnetConfiguration(seed: 23, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(
            seed: 23,
            txsPerBlock: 2_500,
            mempoolTxsPerBlock: 0,
            fundedAddressCount: 200
        )
        var rng = SeededGenerator(seed: 23)
        let followed = (0..<1_000).map { _ in SimAddress.random(.p2wpkh, using: &rng).string }
        let planned = (0..<9).map { _ in (rng.element(of: followed), rng.next(in: Int64(10_000)...900_000)) }
        let data = EngineHarness.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await Harness.with(configuration) { harness in
            let simnet = harness.simnet
            await simnet.setRateLimit(family: .blockbook, Self.limit)
            let list = followed.map { "\"\($0)\"" }.joined(separator: ",")
            let json = """
                {"storage": {"path": "\(data)"},
                 "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "\(simnet.baseURL)", "timeout": "10s"},
                                "rateLimit": {"requests": 20, "per": "1m", "burst": 5, "concurrency": 2}}],
                 "watches": [
                   {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "15s"},
                   {"id": "shop", "type": "address", "providers": ["bb"], "every": "1m", "addresses": [\(list)]}
                 ],
                 "sinks": []}
                """
            let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
            let plan = JobPlan(config: config)
            #expect(
                plan.jobs.first { $0.name == "watch shop" }?.work
                    == .addresses(chain: "btc", watch: "shop", strategy: .scan)
            )
            try await EngineHarness.running(config, client: harness.client) { store in
                let start = await simnet.tip()
                try await EngineHarness.event(store, "block.new", where: { $0["hash"] == .string(start.hash) })
                let before = await simnet.stats().families[.blockbook]
                var payments: [String] = []
                for block in 0..<3 {
                    var paid: [String] = []
                    for (address, amount) in planned[(block * 3)..<(block * 3 + 3)] {
                        paid.append(try await simnet.pay(to: address, amountSat: amount))
                    }
                    _ = try await simnet.mine(count: 1)
                    // Announced before the next block, which comes 30 s later.
                    try await eventually(timeout: .seconds(28), "the block's payments") {
                        let confirmed = Set(
                            try EngineHarness.events(store).filter { $0["type"] == .string("address.tx.confirmed") }
                                .compactMap { $0["data"]?["txid"]?.stringValue }
                        )
                        return paid.allSatisfy(confirmed.contains)
                    }
                    payments += paid
                    try await Task.sleep(for: .seconds(2))
                }
                let after = await simnet.stats().families[.blockbook]
                let blockRequests = (after?.endpoints["/api/v2/block"] ?? 0) - (before?.endpoints["/api/v2/block"] ?? 0)
                #expect(after?.rateLimited == 0, "429s: \(after?.rateLimited ?? -1)")
                // A header and the block's three pages of 1,000 transactions, whatever the number of addresses.
                #expect(blockRequests <= 3 * 4, "\(blockRequests) block requests for 3 blocks")
                print(
                    "scan: 1000 addresses, 3 blocks of 2500 txs: \(blockRequests) block requests, \((after?.requests ?? 0) - (before?.requests ?? 0)) requests in all, 429s \(after?.rateLimited ?? -1)"
                )
                #expect(payments.count == 9)
            }
        }
    }
}

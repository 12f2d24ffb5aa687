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

/// A new block is checked at once: a polled watch runs a round without waiting out its interval, and the CLI's
/// accounts take their confirmed payments from the scanned block. On the wall clock, against the simnet.
@Suite(.serialized)
struct BlockTriggeredTests {
    static func config(_ baseURL: String, _ data: String, watches: String, faults: Bool = false) throws -> WatcherConfig
    {
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "\(baseURL)", "timeout": "1s"},
                            "rateLimit": {"requests": 6000, "per": "1m", "burst": 100, "concurrency": 4}}],
             "watches": [{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"}\(watches)],
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    @Test func aPolledWatchChecksAtOnceAfterANewBlock() async throws {
        let configuration = SimnetConfiguration(
            chain: ChainParameters(seed: 31, txsPerBlock: 20, fundedAddressCount: 20)
        )
        try await Harness.withData(configuration) { simnet, client, data in
            var rng = SeededGenerator(seed: 31)
            let followed = SimAddress.random(.p2wpkh, using: &rng).string
            // Polled once an hour: only a round started by the new block can see the payment in time.
            let watch = """
                , {"id": "shop", "type": "address", "providers": ["bb"], "every": "1h", "strategy": "poll",
                   "addresses": ["\(followed)"]}
                """
            let config = try Self.config(simnet.baseURL, data, watches: watch)
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the first round") {
                    try store.read { try $0.addressState(chain: "btc", address: followed) }?.summary != nil
                }
                let txid = try await simnet.pay(to: followed, amountSat: 42_000)
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(store, "address.tx.confirmed", timeout: .seconds(15)) {
                    $0["txid"] == .string(txid)
                }
            }
        }
    }

    @Test func cliAccountsConvergeWithinOneBlockUnderThirtyPercentFaults() async throws {
        let configuration = SimnetConfiguration(
            chain: ChainParameters(seed: 37, txsPerBlock: 40, fundedAddressCount: 60)
        )
        try await Harness.withData(configuration) { simnet, client, data in
            let accounts = Array(await simnet.addresses().filter(\.funded).prefix(30).map(\.address))
            let config = try Self.config(simnet.baseURL, data, watches: "")
            do {
                let store = try Store(path: data)
                for address in accounts {
                    _ = try await store.write { txn in
                        try txn.putAccount(Account(chain: "btc", address: address, label: nil, addedAt: Date()))
                    }
                }
                await store.close()
            }
            await simnet.setFaults(family: .blockbook, .thirtyPercentMixed)
            // The refresh comes every 60 s: within a block, only the scan can bring the balances up to date.
            try await EngineHarness.running(config, client: client, settings: .init()) { store in
                try await eventually(timeout: .seconds(90), "every account's first observation") {
                    try store.read { try $0.addressStates(chain: "btc") }.filter { $0.summary != nil }.count
                        == accounts.count
                }
                for (index, address) in accounts.enumerated() where index % 3 == 0 {
                    _ = try await simnet.pay(to: address, amountSat: Int64(10_000 * (index + 1)))
                }
                let mined = try await simnet.mine(count: 1)
                let paidAt = ContinuousClock.now
                let mismatches: @Sendable () async throws -> [String] = {
                    let truths = Dictionary(await simnet.addresses().map { ($0.address, $0) }) { a, _ in a }
                    let states = try store.read { try $0.addressStates(chain: "btc") }
                    return accounts.compactMap { address in
                        let state = states.first { $0.address == address }
                        guard let truth = truths[address], let summary = state?.summary else { return address }
                        guard summary.balanceSat == truth.confirmedBalanceSat,
                            summary.txCount == truth.confirmedTxCount
                        else {
                            return "\(address): stored \(summary.balanceSat ?? -1)/\(summary.txCount ?? -1), "
                                + "truth \(truth.confirmedBalanceSat)/\(truth.confirmedTxCount)"
                        }
                        return nil
                    }
                }
                do {
                    try await eventually(timeout: .seconds(25), "confirmed balances to match the simnet's truth") {
                        try await mismatches().isEmpty
                    }
                } catch {
                    Issue.record("still apart: \(try await mismatches())")
                    throw error
                }
                let tip = try store.read { try $0.tip(chain: "btc") }
                #expect(tip?.hash == mined.last?.hash)
                print("accounts: 30 converged \(ContinuousClock.now - paidAt) after the block, under 30% faults")
            }
            let faults = await simnet.stats().families[.blockbook]?.faults ?? 0
            #expect(faults > 5, "only \(faults) faults were injected")
        }
    }
}

import AsyncHTTPClient
import Foundation
import Testing
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

@testable import WatcherApp

/// The `address`, `wallet` and CLI-followed accounts watches run by the real runtime on an `electrum` provider
/// against the simnet's Electrum face, in both personalities (electrs and Fulcrum), side by side with the same
/// watches on a `blockbook` provider: two simnets started with the same seed, driven by the same control calls
/// (payments, blocks, reorgs of 1 and 6 blocks, every Electrum connection dropped then a payment), each step
/// waited for on both. The two event logs must hold the same facts (see ``ElectrumParity`` for what is compared
/// and what is normalised away).
@Suite(.serialized)
struct ElectrumWatchShapeTests {
    /// The `address` watch's address.
    static let followed = EngineHarness.followed
    /// The CLI-followed account (the Bitcoin wiki's example P2PKH address).
    static let account = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"
    /// The wallet's invoice address (receive 1).
    static var invoice: String { (try? WalletHarness.address(.receive, 1)) ?? "" }

    /// The same watches on `provider` (its JSON), as a new user writes them: an address watch, a wallet by
    /// descriptor with a gap of 3 (its strategy left to `auto`: `xpub` on Blockbook, `poll` on Electrum, which has
    /// no block contents and no wallet summary), and the accounts the store follows.
    static func config(_ data: String, provider: String, every: String = "1s") throws -> WatcherConfig {
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [\(provider)],
             "watches": [
               {"id": "shop", "type": "address", "providers": ["p"], "every": "\(every)", "addresses": ["\(followed)"]},
               {"id": "till", "type": "wallet", "providers": ["p"], "every": "1s",
                "descriptor": "\(WalletHarness.descriptor)", "gap": \(WalletHarness.gap), "label": "Till"}
             ],
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    static func blockbook(_ simnet: Simnet) -> String {
        """
        {"id": "p", "type": "blockbook", "options": {"url": "\(simnet.baseURL)", "timeout": "5s"},
         "rateLimit": {"requests": 6000, "per": "1m", "burst": 100, "concurrency": 4}}
        """
    }

    static func electrum(_ simnet: Simnet) throws -> String {
        let port = try #require(simnet.electrumPort)
        return """
            {"id": "p", "type": "electrum", "chain": "btc", "options": {"url": "tcp://127.0.0.1:\(port)", "timeout": "10s"}}
            """
    }

    /// The account followed from the CLI, in the store before the runtime starts.
    static func followAccount(_ data: String) async throws {
        let store = try Store(path: data)
        try await store.write {
            try $0.putAccount(Account(chain: "btc", address: account, label: "desk", addedAt: Date()))
        }
        await store.close()
    }

    @Test(arguments: [ElectrumSettings.Personality.electrs, .fulcrum])
    func everyShapeTellsTheSameStoryAsBlockbook(_ personality: ElectrumSettings.Personality) async throws {
        let configuration = ElectrumHarness.simnet(personality)
        try await Harness.withData(configuration) { reference, referenceClient, referenceData in
            try await Harness.withData(configuration) { simnet, client, data in
                let referenceConfig = try Self.config(referenceData, provider: Self.blockbook(reference))
                // On Electrum the address watch and the accounts are left to the push: refreshed hourly, they see
                // the payments, blocks and reorgs only through status notifications, the rounds after a reorg and
                // the round at each reconnect. The reorg of 1 puts the account's payment back at the same height
                // in the new block: its status does not change, so only the rounds after the reorg confirm it
                // again, even when the accounts' job never saw the replaced block. Blockbook refreshes every
                // second.
                let config = try Self.config(data, provider: try Self.electrum(simnet), every: "1h")
                try await Self.followAccount(referenceData)
                try await Self.followAccount(data)
                let settings = Engine.Settings(accountsInterval: .seconds(1))
                let pushed = Engine.Settings(accountsInterval: .seconds(3600))
                try await EngineHarness.running(referenceConfig, client: referenceClient, settings: settings) {
                    referenceStore in
                    try await EngineHarness.running(config, client: client, settings: pushed) { store in
                        let run = ElectrumParity(
                            simnets: [reference, simnet],
                            stores: [referenceStore, store],
                            addresses: [Self.followed, Self.invoice, Self.account]
                        )
                        try await Self.scenario(run)
                        try run.expectSameEvents()
                    }
                }
            }
        }
    }

    /// Baseline, a mempool payment to each shape, its block, the thresholds, a reorg of 1 and of 6, then every
    /// Electrum connection dropped and a second round of payments.
    static func scenario(_ run: ElectrumParity) async throws {
        try await run.settled("the baselines") { store in
            try store.read { txn in
                try [followed, account].allSatisfy { try txn.addressState(chain: "btc", address: $0)?.summary != nil }
                    && (try txn.walletState(chain: "btc", wallet: "till")?.since) != nil
            }
        }
        for (address, amount) in zip(run.addresses, [50_000, 120_000, 70_000] as [Int64]) {
            try await run.pay(address, amount)
        }
        try await run.settled("the mempool payments")
        try await run.mine(1)
        try await run.settled("the payments confirmed")
        try await run.reorg(1)
        try await run.settled("the payments reverted by a reorg of 1")
        try await run.mine(1)
        try await run.settled("the payments confirmed again")
        try await run.mine(2)
        try await run.settled("3 confirmations")
        try await run.mine(3)
        try await run.settled("6 confirmations")
        try await run.reorg(6)
        try await run.settled("the payments reverted by a reorg of 6")
        try await run.mine(1)
        try await run.settled("the payments confirmed on the new branch")
        try await run.dropElectrumConnections()
        for (address, amount) in zip(run.addresses, [51_000, 121_000, 71_000] as [Int64]) {
            try await run.pay(address, amount)
        }
        try await run.settled("the payments after the reconnect")
        try await run.mine(1)
        try await run.settled("the payments after the reconnect confirmed")
    }
}

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

/// Every watch shape run by the real runtime against the simnet's Bitcoin Core face (a `bitcoind` provider, address
/// and wallet watches by block scan), with payments and reorgs of 1 and 6 blocks. The node's password never appears
/// in the event log or on disk.
@Suite(.serialized)
struct NodeWatchShapeTests {
    static let followed = EngineHarness.followed

    @Test func blocksFollowReorgsOfOneAndSixBlocks() async throws {
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            let config = try NodeHarness.config(
                simnet,
                data,
                watches: #"[{"id": "tip", "type": "blocks", "providers": ["node"], "every": "1s"}]"#
            )
            try await EngineHarness.running(config, client: client) { store in
                let start = await simnet.tip()
                try await EngineHarness.event(store, "block.new", where: { $0["hash"] == .string(start.hash) })
                // The fork walk compares against the remembered chain: once the recent blocks shown are stored (all
                // of this short chain), a reorg's depth is exact rather than bounded by what was seen so far.
                let blocks = NodeHarness.quiet.chain.initialBlocks
                try await eventually(timeout: .seconds(60), "the chain's \(blocks) blocks stored for display") {
                    try store.read { try $0.recentHeaders(chain: "btc", limit: 20) }.count == blocks
                }
                for depth in [1, 6] {
                    _ = try await simnet.reorg(depth: depth)
                    _ = try await simnet.mine(count: 1)
                    let tip = await simnet.tip()
                    try await EngineHarness.event(
                        store,
                        "block.reorged",
                        where: { $0["depth"] == .number("\(depth)") }
                    )
                    try await EngineHarness.event(store, "block.new", where: { $0["hash"] == .string(tip.hash) })
                }
                try NodeHarness.expectNoSecret(store, data)
            }
        }
    }

    @Test func anAddressScanFollowsAPaymentThroughReorgsOfOneAndSix() async throws {
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            let config = try NodeHarness.config(
                simnet,
                data,
                watches: """
                    [{"id": "shop", "type": "address", "providers": ["node"], "every": "1s",
                      "addresses": ["\(Self.followed)"]}]
                    """
            )
            try await EngineHarness.running(config, client: client) { store in
                let start = await simnet.tip()
                try await eventually("the first block scanned") {
                    try store.read { try $0.tip(chain: "btc") }?.hash == start.hash
                }
                let txid = try await simnet.pay(to: Self.followed, amountSat: 50_000)
                _ = try await simnet.mine(count: 1)
                let confirmed = try await EngineHarness.event(
                    store,
                    "address.tx.confirmed",
                    where: EngineHarness.has("txid", txid)
                )
                #expect(confirmed["data"]?["address"] == .string(Self.followed))
                _ = try await simnet.reorg(depth: 1)
                try await EngineHarness.event(store, "address.tx.reverted", where: EngineHarness.has("txid", txid))
                _ = try await simnet.mine(count: 6)
                let second = try await simnet.pay(to: Self.followed, amountSat: 60_000)
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(
                    store,
                    "address.tx.confirmed",
                    where: EngineHarness.has("txid", second)
                )
                _ = try await simnet.mine(count: 5)
                _ = try await simnet.reorg(depth: 6)
                try await EngineHarness.event(
                    store,
                    "address.tx.reverted",
                    where: EngineHarness.has("txid", second)
                )
                try NodeHarness.expectNoSecret(store, data)
            }
        }
    }

    @Test func aWalletScanNamesItsAddressAndSurvivesAReorg() async throws {
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            let config = try NodeHarness.config(
                simnet,
                data,
                watches: """
                    [{"id": "shop", "type": "wallet", "providers": ["node"], "every": "1s", "strategy": "scan",
                      "descriptor": "\(WalletHarness.descriptor)", "gap": \(WalletHarness.gap), "label": "Shop"}]
                    """
            )
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the wallet's state") { try WalletHarness.state(store) != nil }
                let invoice = try WalletHarness.address(.receive, 1)
                let txid = try await simnet.pay(to: invoice, amountSat: 120_000)
                _ = try await simnet.mine(count: 1)
                let confirmed = try await EngineHarness.event(
                    store,
                    "address.tx.confirmed",
                    where: EngineHarness.has("txid", txid)
                )
                #expect(confirmed["data"]?["address"] == .string(invoice))
                #expect(confirmed["data"]?["wallet"]?["id"] == .string("shop"))
                #expect(confirmed["data"]?["wallet"]?["index"] == .number("1"))
                _ = try await simnet.reorg(depth: 1)
                try await EngineHarness.event(store, "address.tx.reverted", where: EngineHarness.has("txid", txid))
                try NodeHarness.expectNoSecret(store, data)
            }
        }
    }

    @Test func aTxWatchCountsToSixAndReportsASixBlockReorg() async throws {
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            let txid = try await simnet.pay(to: Self.followed, amountSat: 90_000)
            let config = try NodeHarness.config(
                simnet,
                data,
                watches: #"[{"id": "pay", "type": "tx", "providers": ["node"], "every": "1s", "txid": "\#(txid)"}]"#
            )
            try await EngineHarness.running(config, client: client) { store in
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(
                    store,
                    "tx.confirmations",
                    where: { $0["confirmations"] == .number("1") }
                )
                _ = try await simnet.mine(count: 5)
                try await EngineHarness.event(
                    store,
                    "tx.confirmations",
                    where: { $0["confirmations"] == .number("6") }
                )
                _ = try await simnet.reorg(depth: 6)
                let reverted = try await EngineHarness.event(store, "tx.reverted")
                #expect(reverted["subject"] == .string(txid))
                try NodeHarness.expectNoSecret(store, data)
            }
        }
    }

    @Test func accountsAreScannedFromTheNode() async throws {
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            // The accounts ride the chain's block scan; a blocks watch sets its pace (1 s, not the default).
            let config = try NodeHarness.config(
                simnet,
                data,
                watches: #"[{"id": "tip", "type": "blocks", "providers": ["node"], "every": "1s"}]"#
            )
            let store = try Store(path: data)
            try await store.write {
                try $0.putAccount(Account(chain: "btc", address: Self.followed, label: "shop", addedAt: Date()))
            }
            await store.close()
            let settings = Engine.Settings(accountsInterval: .seconds(1))
            try await EngineHarness.running(config, client: client, settings: settings) { store in
                let start = await simnet.tip()
                try await eventually("the first block scanned") {
                    try store.read { try $0.tip(chain: "btc") }?.hash == start.hash
                }
                let txid = try await simnet.pay(to: Self.followed, amountSat: 70_000)
                _ = try await simnet.mine(count: 1)
                let confirmed = try await EngineHarness.event(
                    store,
                    "address.tx.confirmed",
                    where: EngineHarness.has("txid", txid)
                )
                #expect(confirmed["source"] == .string("watcher/accounts"))
                #expect(confirmed["data"]?["label"] == .string("shop"))
                try NodeHarness.expectNoSecret(store, data)
            }
        }
    }
}

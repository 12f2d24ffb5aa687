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
    static let followed = WatchShapeTests.followed
    /// The node's password: distinctive, so a leak anywhere is found by a plain search.
    static let password = "s3cret-node-pw-7d1f"

    static var quiet: SimnetConfiguration {
        var configuration = WatchShapeTests.quiet
        configuration.rpcPassword = password
        return configuration
    }

    static func config(_ simnet: Simnet, _ data: String, watches: String) throws -> WatcherConfig {
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [{"id": "node", "type": "bitcoind", "chain": "btc",
                            "options": {"url": "\(simnet.baseURL)", "user": "watcher", "password": "${NODE_PASSWORD}",
                                        "timeout": "2s"}}],
             "watches": \(watches),
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: ["NODE_PASSWORD": password])
            .load(bytes: Array(json.utf8))
    }

    /// The password is in no event and no file of the data directory.
    static func expectNoSecret(_ store: Store, _ data: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let bodies = try store.read { try $0.events() }.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(!bodies.contains { $0.contains(password) }, "the password in an event", sourceLocation: sourceLocation)
        let files = FileManager.default.enumerator(atPath: data)?.compactMap { $0 as? String } ?? []
        let needle = Data(password.utf8)
        for file in files {
            guard let bytes = FileManager.default.contents(atPath: data + "/" + file) else { continue }
            #expect(bytes.range(of: needle) == nil, "the password in \(file)", sourceLocation: sourceLocation)
        }
    }

    @Test func blocksFollowReorgsOfOneAndSixBlocks() async throws {
        try await Harness.withData(Self.quiet) { simnet, client, data in
            let config = try Self.config(
                simnet,
                data,
                watches: #"[{"id": "tip", "type": "blocks", "providers": ["node"], "every": "1s"}]"#
            )
            try await EngineIntegrationTests.running(config, client: client) { store in
                let start = await simnet.tip()
                try await WatchShapeTests.event(store, "block.new", where: { $0["hash"] == .string(start.hash) })
                // The fork walk compares against the remembered chain: once the recent blocks shown are stored (all
                // of this short chain), a reorg's depth is exact rather than bounded by what was seen so far.
                let blocks = Self.quiet.chain.initialBlocks
                try await eventually(timeout: .seconds(60), "the chain's \(blocks) blocks stored for display") {
                    try store.read { try $0.recentHeaders(chain: "btc", limit: 20) }.count == blocks
                }
                for depth in [1, 6] {
                    _ = try await simnet.reorg(depth: depth)
                    _ = try await simnet.mine(count: 1)
                    let tip = await simnet.tip()
                    try await WatchShapeTests.event(
                        store,
                        "block.reorged",
                        where: { $0["depth"] == .number("\(depth)") }
                    )
                    try await WatchShapeTests.event(store, "block.new", where: { $0["hash"] == .string(tip.hash) })
                }
                try Self.expectNoSecret(store, data)
            }
        }
    }

    @Test func anAddressScanFollowsAPaymentThroughReorgsOfOneAndSix() async throws {
        try await Harness.withData(Self.quiet) { simnet, client, data in
            let config = try Self.config(
                simnet,
                data,
                watches: """
                    [{"id": "shop", "type": "address", "providers": ["node"], "every": "1s",
                      "addresses": ["\(Self.followed)"]}]
                    """
            )
            try await EngineIntegrationTests.running(config, client: client) { store in
                let start = await simnet.tip()
                try await eventually("the first block scanned") {
                    try store.read { try $0.tip(chain: "btc") }?.hash == start.hash
                }
                let txid = try await simnet.pay(to: Self.followed, amountSat: 50_000)
                _ = try await simnet.mine(count: 1)
                let confirmed = try await WatchShapeTests.event(
                    store,
                    "address.tx.confirmed",
                    where: WatchShapeTests.has("txid", txid)
                )
                #expect(confirmed["data"]?["address"] == .string(Self.followed))
                _ = try await simnet.reorg(depth: 1)
                try await WatchShapeTests.event(store, "address.tx.reverted", where: WatchShapeTests.has("txid", txid))
                _ = try await simnet.mine(count: 6)
                let second = try await simnet.pay(to: Self.followed, amountSat: 60_000)
                _ = try await simnet.mine(count: 1)
                try await WatchShapeTests.event(
                    store,
                    "address.tx.confirmed",
                    where: WatchShapeTests.has("txid", second)
                )
                _ = try await simnet.mine(count: 5)
                _ = try await simnet.reorg(depth: 6)
                try await WatchShapeTests.event(
                    store,
                    "address.tx.reverted",
                    where: WatchShapeTests.has("txid", second)
                )
                try Self.expectNoSecret(store, data)
            }
        }
    }

    @Test func aWalletScanNamesItsAddressAndSurvivesAReorg() async throws {
        try await Harness.withData(Self.quiet) { simnet, client, data in
            let config = try Self.config(
                simnet,
                data,
                watches: """
                    [{"id": "shop", "type": "wallet", "providers": ["node"], "every": "1s", "strategy": "scan",
                      "descriptor": "\(WalletTests.descriptor)", "gap": \(WalletTests.gap), "label": "Shop"}]
                    """
            )
            try await EngineIntegrationTests.running(config, client: client) { store in
                try await eventually("the wallet's state") { try WalletTests.state(store) != nil }
                let invoice = try WalletTests.address(.receive, 1)
                let txid = try await simnet.pay(to: invoice, amountSat: 120_000)
                _ = try await simnet.mine(count: 1)
                let confirmed = try await WatchShapeTests.event(
                    store,
                    "address.tx.confirmed",
                    where: WatchShapeTests.has("txid", txid)
                )
                #expect(confirmed["data"]?["address"] == .string(invoice))
                #expect(confirmed["data"]?["wallet"]?["id"] == .string("shop"))
                #expect(confirmed["data"]?["wallet"]?["index"] == .number("1"))
                _ = try await simnet.reorg(depth: 1)
                try await WatchShapeTests.event(store, "address.tx.reverted", where: WatchShapeTests.has("txid", txid))
                try Self.expectNoSecret(store, data)
            }
        }
    }

    @Test func aTxWatchCountsToSixAndReportsASixBlockReorg() async throws {
        try await Harness.withData(Self.quiet) { simnet, client, data in
            let txid = try await simnet.pay(to: Self.followed, amountSat: 90_000)
            let config = try Self.config(
                simnet,
                data,
                watches: #"[{"id": "pay", "type": "tx", "providers": ["node"], "every": "1s", "txid": "\#(txid)"}]"#
            )
            try await EngineIntegrationTests.running(config, client: client) { store in
                _ = try await simnet.mine(count: 1)
                try await WatchShapeTests.event(
                    store,
                    "tx.confirmations",
                    where: { $0["confirmations"] == .number("1") }
                )
                _ = try await simnet.mine(count: 5)
                try await WatchShapeTests.event(
                    store,
                    "tx.confirmations",
                    where: { $0["confirmations"] == .number("6") }
                )
                _ = try await simnet.reorg(depth: 6)
                let reverted = try await WatchShapeTests.event(store, "tx.reverted")
                #expect(reverted["subject"] == .string(txid))
                try Self.expectNoSecret(store, data)
            }
        }
    }

    @Test func accountsAreScannedFromTheNode() async throws {
        try await Harness.withData(Self.quiet) { simnet, client, data in
            // The accounts ride the chain's block scan; a blocks watch sets its pace (1 s, not the default).
            let config = try Self.config(
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
            try await EngineIntegrationTests.running(config, client: client, settings: settings) { store in
                let start = await simnet.tip()
                try await eventually("the first block scanned") {
                    try store.read { try $0.tip(chain: "btc") }?.hash == start.hash
                }
                let txid = try await simnet.pay(to: Self.followed, amountSat: 70_000)
                _ = try await simnet.mine(count: 1)
                let confirmed = try await WatchShapeTests.event(
                    store,
                    "address.tx.confirmed",
                    where: WatchShapeTests.has("txid", txid)
                )
                #expect(confirmed["source"] == .string("watcher/accounts"))
                #expect(confirmed["data"]?["label"] == .string("shop"))
                try Self.expectNoSecret(store, data)
            }
        }
    }
}

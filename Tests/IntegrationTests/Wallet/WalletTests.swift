import AsyncHTTPClient
import Foundation
import Testing
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherRequests
import WatcherSimnet
import WatcherStorage
import WatcherTesting

@testable import WatcherApp

/// A `wallet` watch run by the real runtime against the simnet over loopback, scanned, polled and by Blockbook's
/// xpub endpoint: payments at the
/// gap's edges, two in one block beyond the first window, one beyond every window, one that arrived before the
/// window reached its address, a spend with its change, and a payment to an address from `wallets next`. Each is
/// announced once with the right `data.wallet`, and the wallet's balance is the simnet's, to the satoshi.
@Suite(.serialized)
struct WalletTests {

    static func config(_ simnet: Simnet, _ data: String, strategy: String) throws -> WatcherConfig {
        try EngineHarness.config(
            simnet,
            data,
            watches: """
                [{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
                 {"id": "shop", "type": "wallet", "providers": ["bb"], "every": "1s", "strategy": "\(strategy)",
                  "descriptor": "\(WalletHarness.descriptor)", "gap": \(WalletHarness.gap), "label": "Shop", "confirmations": [1, 2]}]
                """
        )
    }

    /// The `address.tx.*` events of `txid`, as (type, address, data.wallet).
    static func txEvents(_ store: Store, _ txid: String) throws -> [JSONValue] {
        try EngineHarness.events(store).filter {
            ($0["type"]?.stringValue ?? "").hasPrefix("address.tx.") && $0["data"]?["txid"] == .string(txid)
        }
    }

    /// Waits until `txid` is announced confirmed for each of `expected` (address → wallet ref), once each, with the
    /// right `data.wallet`.
    static func expectConfirmed(
        _ store: Store,
        _ txid: String,
        _ expected: [String: (String, Int)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await eventually(timeout: .seconds(30), "\(txid) confirmed for \(expected.keys.sorted())") {
            let confirmed = try txEvents(store, txid).filter { $0["type"] == .string("address.tx.confirmed") }
            return Set(confirmed.compactMap { $0["data"]?["address"]?.stringValue }) == Set(expected.keys)
        }
        let confirmed = try txEvents(store, txid).filter { $0["type"] == .string("address.tx.confirmed") }
        #expect(confirmed.count == expected.count, "announced more than once", sourceLocation: sourceLocation)
        for event in confirmed {
            let data = event["data"] ?? .null
            let address = data["address"]?.stringValue ?? ""
            let (branch, index) = expected[address] ?? ("?", -1)
            #expect(data["wallet"]?["id"] == .string("shop"), sourceLocation: sourceLocation)
            #expect(data["wallet"]?["branch"] == .string(branch), sourceLocation: sourceLocation)
            #expect(data["wallet"]?["index"] == .number("\(index)"), sourceLocation: sourceLocation)
            #expect(data["label"] == .string("Shop"), sourceLocation: sourceLocation)
            #expect(event["source"] == .string("watcher/shop"), sourceLocation: sourceLocation)
        }
    }

    /// Mines a block and waits until the watcher has taken it in: its `block.new` (a scanned wallet is matched in
    /// the same commit) and, for a polled wallet, a round that read the addresses after it (each round stamps the
    /// used addresses it observed; an observation read before the block is dropped, not committed).
    static func mine(_ simnet: Simnet, _ store: Store, polled: Bool) async throws {
        let block = try #require(try await simnet.mine(count: 1).last)
        try await EngineHarness.event(store, "block.new", where: { $0["hash"] == .string(block.hash) })
        guard polled else { return }
        let after = Date()
        try await eventually("a wallet round after block \(block.height)") {
            try store.read { try $0.addressStates(chain: "btc") }.contains {
                $0.wallet != nil && ($0.updatedAt ?? .distantPast) > after
            }
        }
    }

    @Test(arguments: ["scan", "poll", "xpub"])
    func paymentsAcrossTheGapAreAnnouncedOnceEach(strategy: String) async throws {
        let polled = strategy != "scan"
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let config = try Self.config(simnet, data, strategy: strategy)
            try await EngineHarness.running(config, client: client) { store in
                // The initial sync: 3 addresses a branch checked, none used.
                try await eventually("the initial sync") {
                    guard let state = try WalletHarness.state(store) else { return false }
                    return state.receive.checkedUpTo == 2 && state.change.checkedUpTo == 2
                }
                #expect(try WalletHarness.state(store)?.receive.lastUsed == nil)
                let r = { (index: UInt32) in try WalletHarness.address(.receive, index) }
                // At the first window's edge (index gap - 1).
                let edge = try await simnet.pay(to: r(2), amountSat: 120_000)
                try await Self.mine(simnet, store, polled: polled)
                try await Self.expectConfirmed(store, edge, [try r(2): ("receive", 2)])
                // At lastUsed + gap.
                let second = try await simnet.pay(to: r(5), amountSat: 50_000)
                try await Self.mine(simnet, store, polled: polled)
                try await Self.expectConfirmed(store, second, [try r(5): ("receive", 5)])
                // At lastUsed + gap + 1, and far beyond every window: not announced.
                let early = try await simnet.pay(to: r(9), amountSat: 7_000)
                let beyond = try await simnet.pay(to: r(1000), amountSat: 9_000)
                try await Self.mine(simnet, store, polled: polled)
                #expect(try Self.txEvents(store, early).isEmpty)
                #expect(try Self.txEvents(store, beyond).isEmpty)
                // Two in one block beyond the window (8 = 5 + gap, then 11 = 8 + gap): both found, and 9, paid
                // before the window reached it, is announced too once its history is checked.
                let eight = try await simnet.pay(to: r(8), amountSat: 31_000)
                let eleven = try await simnet.pay(to: r(11), amountSat: 42_000)
                try await Self.mine(simnet, store, polled: polled)
                try await Self.expectConfirmed(store, eight, [try r(8): ("receive", 8)])
                try await Self.expectConfirmed(store, eleven, [try r(11): ("receive", 11)])
                try await Self.expectConfirmed(store, early, [try r(9): ("receive", 9)])
                // A spend out of the wallet with its change on the change branch.
                let change = try WalletHarness.address(.change, 0)
                let outside = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
                let spend = try await simnet.pay(to: outside, amountSat: 60_000, from: r(2), change: change)
                try await Self.mine(simnet, store, polled: polled)
                try await Self.expectConfirmed(store, spend, [try r(2): ("receive", 2), change: ("change", 0)])
                let deltas = try Self.txEvents(store, spend).filter { $0["type"] == .string("address.tx.confirmed") }
                    .reduce(into: [String: String]()) {
                        $0[$1["data"]?["address"]?.stringValue ?? ""] = $1["data"]?["deltaSat"]?.serialized()
                    }
                let spent = try r(2)
                #expect(deltas[spent] == "-120000")
                #expect(deltas[change].flatMap { Int64($0) }.map { $0 > 0 && $0 < 60_000 } == true)
                // An address handed out by `wallets next`: the lowest receive index above the last used (11).
                let book = WalletBook.load(chain: "btc", watches: config.watches)
                let issued = try await WalletIssuer.next(
                    try #require(book.wallets["shop"]),
                    chain: "btc",
                    label: "Order 12",
                    store: store
                )
                let twelve = try r(12)
                #expect(issued.index == 12 && issued.address == twelve)
                #expect(issued.uri == "bitcoin:\(issued.address)?label=Order%2012")
                let invoice = try await simnet.pay(to: issued.address, amountSat: 77_000)
                try await Self.mine(simnet, store, polled: polled)
                try await Self.expectConfirmed(store, invoice, [issued.address: ("receive", 12)])
                // The label given when it was handed out names the invoice on its events; others have none.
                let labels = try Self.txEvents(store, invoice).map { $0["data"]?["wallet"]?["label"] }
                #expect(!labels.isEmpty && labels.allSatisfy { $0 == .string("Order 12") }, "\(labels)")
                #expect(try Self.txEvents(store, spend).allSatisfy { $0["data"]?["wallet"]?["label"] == nil })
                #expect(try Self.txEvents(store, beyond).isEmpty)

                // The balance, to the satoshi: the simnet's truth over the wallet's addresses.
                let window = try #require(try WalletHarness.state(store))
                #expect(window.receive.lastUsed == 12 && window.receive.lastIssued == 12)
                #expect((window.receive.derivedUpTo ?? 0) >= 15 && window.change.lastUsed == 0)
                let ours = Set(try (0...15).map { try r(UInt32($0)) } + [change])
                let truth = await simnet.addresses().filter { ours.contains($0.address) }
                    .reduce(Int64(0)) { $0 + $1.confirmedBalanceSat }
                try await eventually("the wallet's balance") {
                    try WalletHarness.state(store)?.balanceSat == truth
                }
                let changeBack = Int64(deltas[change] ?? "") ?? 0
                let paid: Int64 = 50_000 + 7_000 + 31_000 + 42_000 + 77_000
                #expect(truth == paid + changeBack)
                // wallet.balance.changed: one per change of state, its deltas summing to the balance; no
                // address.balance.changed for a wallet's address.
                let events = try EngineHarness.events(store)
                #expect(!events.contains { $0["type"] == .string("address.balance.changed") })
                let changes = events.filter { $0["type"] == .string("wallet.balance.changed") }
                #expect(changes.contains { $0["data"]?["txid"] == .string(spend) })
                let total = changes.compactMap { $0["data"]?["deltaSat"]?.serialized() }.compactMap(Int64.init)
                    .reduce(0, +)
                #expect(total == truth, "wallet.balance.changed deltas: \(total), balance \(truth)")
            }
        }
    }

    @Test(arguments: ["poll", "xpub"])
    func aMempoolPaymentMovesAPolledWalletsBalanceFromUnconfirmedToConfirmed(strategy: String) async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let config = try Self.config(simnet, data, strategy: strategy)
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the initial sync") { try WalletHarness.state(store)?.change.checkedUpTo == 2 }
                let address = try WalletHarness.address(.receive, 1)
                let txid = try await simnet.pay(to: address, amountSat: 25_000)
                let pending =
                    try await EngineHarness.event(store, "wallet.balance.changed") {
                        $0["txid"] == .string(txid)
                    }["data"] ?? .null
                #expect(pending["unconfirmedDeltaSat"] == .number("25000") && pending["deltaSat"] == .number("25000"))
                let unconfirmed = try Self.txEvents(store, txid)
                #expect(unconfirmed.map { $0["type"] } == [.string("address.tx.unconfirmed")])
                #expect(unconfirmed.first?["data"]?["wallet"]?["index"] == .number("1"))
                _ = try await simnet.mine(count: 1)
                let settled =
                    try await EngineHarness.event(store, "wallet.balance.changed") {
                        $0["txid"] == .string(txid) && $0["confirmedDeltaSat"] == .number("25000")
                    }["data"] ?? .null
                #expect(settled["deltaSat"] == .number("0") && settled["unconfirmedDeltaSat"] == .number("-25000"))
                #expect(try WalletHarness.state(store)?.balanceSat == 25_000)
                #expect(try WalletHarness.state(store)?.unconfirmedSat == 0)
            }
        }
    }

    /// A scanned wallet sees no mempool by itself; with Blockbook's websocket its window (both branches) is
    /// subscribed and mempool payments and spends are announced from the push, with the wallet's balance.
    @Test func aScannedWalletOnPushSeesMempoolPaymentsAndSpends() async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let json = """
                {"storage": {"path": "\(data)"},
                 "providers": [{"id": "bb", "type": "blockbook",
                                "options": {"url": "\(simnet.baseURL)", "timeout": "2s", "websocket": true},
                                "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}}],
                 "watches": [{"id": "shop", "type": "wallet", "providers": ["bb"], "every": "1s", "strategy": "scan",
                              "descriptor": "\(WalletHarness.descriptor)", "gap": \(WalletHarness.gap)}],
                 "sinks": []}
                """
            let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the initial sync") { try WalletHarness.state(store)?.change.checkedUpTo == 2 }
                // Subscribed: the window's six addresses (the first connection waits for the first window). The
                // simnet counts a message before it registers what it asks: the subscription itself is waited for.
                let address = try WalletHarness.address(.receive, 1)
                try await eventually(timeout: .seconds(30), "the websocket subscribed") {
                    simnet.websocketStats().open == 1 && simnet.websocketSubscribedAddresses().contains(address)
                }
                let before = simnet.websocketStats()
                let txid = try await simnet.pay(to: address, amountSat: 80_000)
                let paid = try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(10)) {
                    $0["txid"] == .string(txid)
                }
                #expect(paid["data"]?["wallet"]?["index"] == .number("1"))
                try await EngineHarness.event(store, "wallet.balance.changed") {
                    $0["unconfirmedDeltaSat"] == .number("80000")
                }
                // The payment grew the receive window (to index 4): it is subscribed anew on a new connection.
                let change = try WalletHarness.address(.change, 2)
                let grown = try WalletHarness.address(.receive, 4)
                try await eventually(timeout: .seconds(10), "the grown window subscribed") {
                    let stats = simnet.websocketStats()
                    return stats.connections > before.connections && stats.open == 1
                        && simnet.websocketSubscribedAddresses().isSuperset(of: [address, change, grown])
                }
                // A spend out of it with its change, from the mempool: both addresses pushed.
                let spend = try await simnet.pay(
                    to: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                    amountSat: 30_000,
                    from: address,
                    change: change
                )
                try await eventually(timeout: .seconds(10), "the spend pushed for both addresses") {
                    Set(try Self.txEvents(store, spend).compactMap { $0["data"]?["address"]?.stringValue })
                        == [address, change]
                }
                try await eventually("the wallet's unconfirmed balance") {
                    try WalletHarness.state(store)?.unconfirmedSat == 80_000 - 30_000 - 450
                }
                _ = try await simnet.mine(count: 1)
                try await eventually("the block's balance") {
                    let state = try WalletHarness.state(store)
                    return state?.balanceSat == 80_000 - 30_000 - 450 && state?.unconfirmedSat == 0
                }
                let confirmed = try Self.txEvents(store, spend).filter { $0["type"] == .string("address.tx.confirmed") }
                #expect(confirmed.count == 2)
            }
        }
    }

    /// A reorg takes a wallet's payment out of its block: `address.tx.reverted` with its `data.wallet`, then its fate
    /// (confirmed again, back in the mempool, or replaced) is announced, and the wallet's balance ends at the
    /// simnet's truth. The window does not shrink.
    @Test(arguments: ["scan", "poll", "xpub"])
    func aReorgRevertsAWalletPaymentAndTheBalanceFollows(strategy: String) async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let config = try Self.config(simnet, data, strategy: strategy)
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the initial sync") { try WalletHarness.state(store)?.change.checkedUpTo == 2 }
                let address = try WalletHarness.address(.receive, 2)
                let txid = try await simnet.pay(to: address, amountSat: 64_000)
                _ = try await simnet.mine(count: 1)
                try await Self.expectConfirmed(store, txid, [address: ("receive", 2)])
                let grown = try #require(try WalletHarness.state(store)?.receive.derivedUpTo)
                _ = try await simnet.reorg(depth: 1)
                _ = try await simnet.mine(count: 1)
                let reverted = try await EngineHarness.event(store, "address.tx.reverted") {
                    $0["txid"] == .string(txid)
                }
                #expect(reverted["data"]?["wallet"]?["index"] == .number("2"))
                try await eventually(timeout: .seconds(30), "the balance at the simnet's truth") {
                    let truth = await simnet.addresses().first { $0.address == address }
                    let state = try WalletHarness.state(store)
                    return state?.balanceSat == truth?.confirmedBalanceSat
                        && (strategy == "scan" || state?.unconfirmedSat == truth?.unconfirmedBalanceSat)
                }
                #expect(try WalletHarness.state(store)?.receive.derivedUpTo == grown)
            }
        }
    }
}

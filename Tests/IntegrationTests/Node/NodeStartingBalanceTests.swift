import Foundation
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// A node has no address index: an address followed on a `bitcoind` provider gets its starting balance from one
/// `scantxoutset` over the node's UTXO set when the watch starts, with no event for the history before, and the
/// later confirmed steps count from it.
@Suite(.serialized)
struct NodeStartingBalanceTests {
    @Test func checkSaysWhatANodeOnlyWatchCannotKnow() async throws {
        let data = EngineHarness.dataDirectory()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        let config = "\(data)/watcher.json"
        try """
        {"storage": {"path": "\(data)"},
         "providers": [{"id": "node", "type": "bitcoind", "chain": "btc",
                        "options": {"user": "watcher", "password": "${NODE_PW}"}}],
         "watches": [{"id": "shop", "type": "address", "providers": ["node"],
                      "addresses": ["\(EngineHarness.followed)"]}],
         "sinks": []}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let check = try await WatcherProcess.run(["check", "--config", config], environment: ["NODE_PW": "pw-1"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("starting balances read once from node's UTXO set"), "\(check.stdout)")
        #expect(check.stdout.contains("the history before the watch started is not known"), "\(check.stdout)")
    }

    @Test func anAddressFundedBeforeTheWatchStartsHasItsBalanceFromTheUTXOSet() async throws {
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            let truths = await simnet.addresses()
            let funded = try #require(truths.first { $0.funded && $0.confirmedBalanceSat > 0 })
            let address = funded.address
            let config = try NodeHarness.config(
                simnet,
                data,
                watches: """
                    [{"id": "shop", "type": "address", "providers": ["node"], "every": "1s",
                      "addresses": ["\(address)"]}]
                    """
            )
            try await EngineHarness.running(config, client: client) { store in
                try await eventually(timeout: .seconds(60), "the starting balance stored") {
                    try store.read { try $0.addressState(chain: "btc", address: address) }?.summary?.balanceSat
                        == funded.confirmedBalanceSat
                }
                let state = try #require(try store.read { try $0.addressState(chain: "btc", address: address) })
                // What a UTXO set cannot say stays unknown.
                #expect(state.summary?.totalReceivedSat == nil && state.summary?.txCount == nil)
                // The baseline announces nothing about the history before the watch.
                let early = try EngineHarness.events(store).filter {
                    $0["type"]?.stringValue?.hasPrefix("address.") == true
                }
                #expect(early.isEmpty, "\(early)")
                let scans = await simnet.stats().families[.bitcoind]?.endpoints["scantxoutset"] ?? 0
                #expect(scans == 1)

                let txid = try await simnet.pay(to: address, amountSat: 70_000)
                _ = try await simnet.mine(count: 1)
                let changed = try await EngineHarness.event(
                    store,
                    "address.balance.changed",
                    timeout: .seconds(60),
                    where: { $0["txid"] == .string(txid) && $0["state"] == .string("confirmed") }
                )
                let after = try #require(await simnet.addresses().first { $0.address == address })
                #expect(after.confirmedBalanceSat == funded.confirmedBalanceSat + 70_000)
                #expect(changed["data"]?["balanceSat"] == .number("\(after.confirmedBalanceSat)"), "\(changed)")
                try await eventually(timeout: .seconds(30), "the stored balance moved by the payment") {
                    try store.read { try $0.addressState(chain: "btc", address: address) }?.summary?.balanceSat
                        == after.confirmedBalanceSat
                }
                // Known now: no second scan.
                #expect(await simnet.stats().families[.bitcoind]?.endpoints["scantxoutset"] == 1)
                try NodeHarness.expectNoSecret(store, data)
            }
        }
    }

    /// Issue 33, item 3: the tip a new watch starts at belongs to its baseline, so a payment in that block is in
    /// the starting balance and is not announced too (the steps would count it twice).
    @Test func aPaymentInTheTipBlockAtStartIsInTheBaselineNotAnnounced() async throws {
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            let address = EngineHarness.followed
            let early = try await simnet.pay(to: address, amountSat: 31_000)
            _ = try await simnet.mine(count: 1)
            let atTip = try await simnet.pay(to: address, amountSat: 42_000)
            _ = try await simnet.mine(count: 1)
            let config = try NodeHarness.config(
                simnet,
                data,
                watches: """
                    [{"id": "shop", "type": "address", "providers": ["node"], "every": "1s",
                      "addresses": ["\(address)"]}]
                    """
            )
            try await EngineHarness.running(config, client: client) { store in
                try await eventually(timeout: .seconds(60), "the starting balance stored") {
                    try store.read { try $0.addressState(chain: "btc", address: address) }?.summary?.balanceSat
                        == 73_000
                }
                let announced = try EngineHarness.events(store).filter {
                    $0["type"]?.stringValue?.hasPrefix("address.") == true
                }
                #expect(announced.isEmpty, "the baseline's \(early) and \(atTip) announced: \(announced)")

                let later = try await simnet.pay(to: address, amountSat: 5_000)
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(
                    store,
                    "address.balance.changed",
                    timeout: .seconds(60),
                    where: { $0["txid"] == .string(later) && $0["state"] == .string("confirmed") }
                )
                // The steps add up to the balance less the baseline.
                let steps = try EngineHarness.events(store).filter { $0["type"] == .string("address.balance.changed") }
                let sum = steps.reduce(Int64(0)) { total, step in
                    guard case .number(let text)? = step["data"]?["confirmedDeltaSat"] else { return total }
                    return total + (Int64(text) ?? 0)
                }
                #expect(sum == 5_000, "\(steps)")
            }
        }
    }

    @Test func aWalletFundedBeforeTheWatchStartsHasItsBalanceAndItsWindowGrows() async throws {
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            // Index 1 is in the first window (gap 3: 0...2); index 4 only once index 1 counts as used.
            let one = try WalletHarness.address(.receive, 1)
            let four = try WalletHarness.address(.receive, 4)
            _ = try await simnet.pay(to: one, amountSat: 40_000)
            _ = try await simnet.pay(to: four, amountSat: 25_000)
            // Below the tip at start: the engine scans the block it starts at (a payment landing between start-up
            // and the first poll is never lost), so a payment in it would be announced, not found in the UTXO set.
            _ = try await simnet.mine(count: 2)
            let config = try NodeHarness.config(
                simnet,
                data,
                watches: """
                    [{"id": "shop", "type": "wallet", "providers": ["node"], "every": "1s", "strategy": "scan",
                      "descriptor": "\(WalletHarness.descriptor)", "gap": \(WalletHarness.gap)}]
                    """
            )
            try await EngineHarness.running(config, client: client) { store in
                try await eventually(timeout: .seconds(60), "both starting balances in the wallet's") {
                    try WalletHarness.state(store)?.balanceSat == 65_000
                }
                #expect(try WalletHarness.state(store)?.receive.derivedUpTo ?? 0 >= 4 + WalletHarness.gap)
                let early = try EngineHarness.events(store).filter {
                    ["wallet.balance.changed", "address.tx.confirmed"].contains($0["type"]?.stringValue ?? "")
                }
                #expect(early.isEmpty, "\(early)")

                let two = try WalletHarness.address(.receive, 2)
                let txid = try await simnet.pay(to: two, amountSat: 10_000)
                _ = try await simnet.mine(count: 1)
                let changed = try await EngineHarness.event(
                    store,
                    "wallet.balance.changed",
                    timeout: .seconds(60),
                    where: { $0["txid"] == .string(txid) && $0["state"] == .string("confirmed") }
                )
                #expect(changed["data"]?["balanceSat"] == .number("75000"), "\(changed)")
            }
        }
    }

    @Test func aCLIAccountOnANodeHasItsStartingBalance() async throws {
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            let funded = try #require(await simnet.addresses().first { $0.funded && $0.confirmedBalanceSat > 0 })
            let config = try NodeHarness.config(
                simnet,
                data,
                watches: #"[{"id": "tip", "type": "blocks", "providers": ["node"], "every": "1s"}]"#
            )
            let store = try Store(path: data)
            try await store.write {
                try $0.putAccount(Account(chain: "btc", address: funded.address, label: "shop", addedAt: Date()))
            }
            await store.close()
            let settings = Engine.Settings(accountsInterval: .seconds(1))
            try await EngineHarness.running(config, client: client, settings: settings) { store in
                try await eventually(timeout: .seconds(60), "the account's starting balance stored") {
                    try store.read { try $0.addressState(chain: "btc", address: funded.address) }?.summary?.balanceSat
                        == funded.confirmedBalanceSat
                }
                #expect(await simnet.stats().families[.bitcoind]?.endpoints["scantxoutset"] == 1)
            }
        }
    }
}

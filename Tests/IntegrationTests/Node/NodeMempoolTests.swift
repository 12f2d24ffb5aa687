import Foundation
import Testing
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherStorage
import WatcherTesting

@testable import WatcherSimnet

/// Mempool payments on the simnet's Bitcoin Core face (a `bitcoind` provider, address and wallet watches by block
/// scan): the mempool job announces them as a Blockbook-backed run does, the block confirms them once, and the
/// mempool's requests do not grow with the followed addresses.
@Suite(.serialized)
struct NodeMempoolTests {
    static let followed = EngineHarness.followed

    static func addressWatch(_ addresses: [String]) -> String {
        let list = addresses.map { "\"\($0)\"" }.joined(separator: ",")
        return #"[{"id": "shop", "type": "address", "providers": ["node"], "every": "1s", "addresses": [\#(list)]}]"#
    }

    /// The sorted keys of `event`'s data.
    static func keys(_ event: JSONValue) -> [String] {
        guard case .object(let members) = event["data"] ?? .null else { return [] }
        return members.map(\.key).sorted()
    }

    @Test func aMempoolPaymentToAScannedAddressIsAnnouncedThenConfirmedOnce() async throws {
        // The shape a Blockbook-backed run gives the same payment.
        let polledKeys = try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let config = try EngineHarness.config(
                simnet,
                data,
                watches:
                    #"[{"id": "shop", "type": "address", "providers": ["bb"], "every": "1s", "addresses": ["\#(Self.followed)"]}]"#
            )
            return try await EngineHarness.running(config, client: client) { store in
                try await eventually("the baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: Self.followed)?.summary } != nil
                }
                let txid = try await simnet.pay(to: Self.followed, amountSat: 50_000)
                return Self.keys(
                    try await EngineHarness.event(
                        store,
                        "address.tx.unconfirmed",
                        where: EngineHarness.has("txid", txid)
                    )
                )
            }
        }
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            let config = try NodeHarness.config(simnet, data, watches: Self.addressWatch([Self.followed]))
            try await EngineHarness.running(config, client: client) { store in
                let start = await simnet.tip()
                try await eventually("the first block scanned") {
                    try store.read { try $0.tip(chain: "btc") }?.hash == start.hash
                }
                let txid = try await simnet.pay(to: Self.followed, amountSat: 50_000)
                let seen = try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: EngineHarness.has("txid", txid)
                )
                #expect(Self.keys(seen) == polledKeys)
                let fee: Int64? = await simnet.chain().transaction(txid)?.fee
                #expect(seen["data"]?["deltaSat"] == .number("50000"))
                #expect(seen["data"]?["feeSat"] == fee.map { .number("\($0)") })
                #expect(seen["data"]?["rbf"] == .bool(true))
                #expect(seen["data"]?["vsize"] != .null)
                #expect(seen["data"]?["unconfirmedInputs"] != .null)
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(store, "address.tx.confirmed", where: EngineHarness.has("txid", txid))
                // A spend of the confirmed coin: Core gives the mempool input no prevout; the UTXO set values it.
                let spend = try await simnet.pay(
                    to: WalletHarness.address(.receive, 0),
                    amountSat: 20_000,
                    from: Self.followed
                )
                let spent = try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: EngineHarness.has("txid", spend)
                )
                let outputs: [SimOutput] = await simnet.chain().transaction(spend)?.outputs ?? []
                let change = outputs.filter { $0.address == Self.followed }.reduce(Int64(0)) { $0 + $1.value } - 50_000
                #expect(spent["data"]?["deltaSat"] == .number("\(change)"))
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(
                    store,
                    "address.tx.confirmed",
                    where: EngineHarness.has("txid", spend)
                )
                let unconfirmed = try EngineHarness.events(store).filter {
                    $0["type"] == .string("address.tx.unconfirmed")
                }
                #expect(unconfirmed.count == 2, "one unconfirmed event per payment")
                try NodeHarness.expectNoSecret(store, data)
            }
        }
    }

    @Test func aMempoolPaymentToAWalletNamesItsAddressAndMovesTheWallet() async throws {
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
                let seen = try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: EngineHarness.has("txid", txid)
                )
                #expect(seen["data"]?["address"] == .string(invoice))
                #expect(seen["data"]?["wallet"]?["id"] == .string("shop"))
                #expect(seen["data"]?["wallet"]?["index"] == .number("1"))
                try await EngineHarness.event(store, "wallet.balance.changed") {
                    $0["txid"] == .string(txid) && $0["state"] == .string("unconfirmed")
                }
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(store, "address.tx.confirmed", where: EngineHarness.has("txid", txid))
                let unconfirmed = try EngineHarness.events(store).filter {
                    $0["type"] == .string("address.tx.unconfirmed")
                }
                #expect(unconfirmed.count == 1)
            }
        }
    }

    @Test func aPaymentEvictedFromTheMempoolIsAnnouncedGoneOnceABlockDidNotConfirmIt() async throws {
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            let config = try NodeHarness.config(simnet, data, watches: Self.addressWatch([Self.followed]))
            try await EngineHarness.running(config, client: client) { store in
                let start = await simnet.tip()
                try await eventually("the first block scanned") {
                    try store.read { try $0.tip(chain: "btc") }?.hash == start.hash
                }
                let txid = try await simnet.pay(to: Self.followed, amountSat: 40_000)
                try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: EngineHarness.has("txid", txid)
                )
                // Gone without a replacement: the job asks the node who spends the payment's inputs once it misses
                // the payment, and waits for a block that does not confirm it.
                let asked = await simnet.stats().families[.bitcoind]?.endpoints["gettxspendingprevout"] ?? 0
                _ = try await simnet.evict(txid)
                try await eventually("the spenders asked about") {
                    await simnet.stats().families[.bitcoind]?.endpoints["gettxspendingprevout"] ?? 0 > asked
                }
                let mined = try await simnet.mine(count: 1)
                let replaced = try await EngineHarness.event(
                    store,
                    "address.tx.replaced",
                    where: EngineHarness.has("txid", txid)
                )
                #expect(replaced["data"]?["address"] == .string(Self.followed))
                #expect(replaced["data"]?["reason"] == .string("evicted"))
                #expect(replaced["data"]?["replacedBy"] == .null)
                try await EngineHarness.event(store, "address.balance.changed") {
                    $0["txid"] == .string(txid) && $0["state"] == .string("replaced")
                }
                // Announced only once the block is stored: the scan read it first.
                let tip = try store.read { try $0.tip(chain: "btc") }
                #expect(tip.map { $0.height >= mined[0].height } == true)
                let state = try store.read { try $0.addressState(chain: "btc", address: Self.followed) }
                #expect(state?.txs[txid] == nil)
            }
        }
    }

    /// Issue 33, item 6: a replacement read from the node's mempool retracts the original at once (no block
    /// needed: the node accepted a transaction spending the same input), names it, and follows it where it pays the
    /// same address: the unconfirmed steps never count both.
    @Test(arguments: [false, true])
    func aReplacementReadFromTheMempoolRetractsTheOriginalAtOnce(_ paysTheSameAddress: Bool) async throws {
        try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            let config = try NodeHarness.config(simnet, data, watches: Self.addressWatch([Self.followed]))
            try await EngineHarness.running(config, client: client) { store in
                let start = await simnet.tip()
                try await eventually("the first block scanned") {
                    try store.read { try $0.tip(chain: "btc") }?.hash == start.hash
                }
                let txid = try await simnet.pay(to: Self.followed, amountSat: 20_000)
                try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: EngineHarness.has("txid", txid)
                )
                let replacement = try await simnet.replace(txid, payTo: paysTheSameAddress ? Self.followed : nil)
                // No block is mined: the replacement alone retracts the original.
                let replaced = try await EngineHarness.event(
                    store,
                    "address.tx.replaced",
                    where: EngineHarness.has("txid", txid)
                )
                #expect(replaced["data"]?["reason"] == .string("replaced"))
                #expect(replaced["data"]?["replacedBy"] == .string(replacement))
                #expect(replaced["data"]?["replacementFollowed"] == .bool(paysTheSameAddress), "\(replaced)")
                let expected: Int64 = paysTheSameAddress ? 20_000 : 0
                if paysTheSameAddress {
                    try await EngineHarness.event(
                        store,
                        "address.tx.unconfirmed",
                        where: EngineHarness.has("txid", replacement)
                    )
                }
                #expect(try store.read { try $0.tip(chain: "btc") }?.hash == start.hash, "no block was needed")
                let steps = try EngineHarness.events(store).filter { $0["type"] == .string("address.balance.changed") }
                let pending = steps.reduce(Int64(0)) { total, step in
                    guard case .number(let text)? = step["data"]?["unconfirmedDeltaSat"] else { return total }
                    return total + (Int64(text) ?? 0)
                }
                #expect(pending == expected, "\(steps)")
                let state = try store.read { try $0.addressState(chain: "btc", address: Self.followed) }
                #expect(state?.txs[txid] == nil)
                #expect(state?.summary?.unconfirmedBalanceSat == expected)
            }
        }
    }

    /// The mempool's requests for one payment (the list, the transactions, their spent outputs) with `count`
    /// followed addresses.
    static func mempoolRequests(followed count: Int) async throws -> Int {
        var rng = SeededGenerator(seed: 4_242)
        let others = (1..<count).map { _ in SimAddress.random(.p2wpkh, using: &rng).string }
        return try await Harness.withData(NodeHarness.quiet) { simnet, client, data in
            let config = try NodeHarness.config(
                simnet,
                data,
                watches: Self.addressWatch([Self.followed] + others)
            )
            return try await EngineHarness.running(config, client: client) { store in
                let start = await simnet.tip()
                try await eventually("the first block scanned") {
                    try store.read { try $0.tip(chain: "btc") }?.hash == start.hash
                }
                let before = await simnet.stats().families[.bitcoind]?.endpoints ?? [:]
                let txid = try await simnet.pay(to: Self.followed, amountSat: 50_000)
                try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: EngineHarness.has("txid", txid)
                )
                let after = await simnet.stats().families[.bitcoind]?.endpoints ?? [:]
                // Per transaction read, not per poll: the list itself is asked once a second whatever happens.
                return ["getrawtransaction", "gettxout"].reduce(0) { $0 + (after[$1] ?? 0) - (before[$1] ?? 0) }
            }
        }
    }

    @Test func theMempoolsRequestsDoNotGrowWithTheFollowedAddresses() async throws {
        let one = try await Self.mempoolRequests(followed: 1)
        let many = try await Self.mempoolRequests(followed: 5_000)
        print("mempool reads for one payment: 1 address \(one), 5000 addresses \(many)")
        #expect(one >= 1, "the payment was read")
        #expect(many <= one + 2 && many <= 8, "1 address: \(one), 5000 addresses: \(many)")
    }
}

import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// `address.tx.replaced` names its replacer and why, from the real runtime against the simnet's Blockbook on the
/// wall clock: a fee bump that pays elsewhere (named by `?spending=true`), one that still pays the followed address
/// (in its history: followed as a payment of its own, seen before any block although the summary does not move), an
/// eviction (the inputs unspent again), and a payment whose
/// parent left the mempool (the inputs gone).
@Suite(.serialized)
struct ReplacementTests {
    static let followed = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"

    /// Runs `body` with the watcher following ``followed`` on the simnet's Blockbook, its baseline taken, and a
    /// funded payer that is not the followed address.
    static func following(
        _ body: @Sendable (Simnet, Store, _ payer: String) async throws -> Void
    ) async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let config = try EngineHarness.config(
                simnet,
                data,
                watches: #"""
                    [{"id": "shop", "type": "address", "providers": ["bb"], "every": "1s",
                      "addresses": ["\#(Self.followed)"]}]
                    """#
            )
            let payer = try #require(
                await simnet.addresses().first { $0.funded && $0.address != Self.followed }?.address
            )
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: Self.followed)?.summary } != nil
                }
                try await body(simnet, store, payer)
            }
        }
    }

    /// Pays ``followed`` from `payer` and waits until the watcher follows the payment.
    static func payment(_ simnet: Simnet, _ store: Store, from payer: String) async throws -> String {
        let txid = try await simnet.pay(to: Self.followed, amountSat: 50_000, from: payer)
        try await EngineHarness.event(store, "address.tx.unconfirmed", where: EngineHarness.has("txid", txid))
        return txid
    }

    @Test func aFeeBumpPayingElsewhereIsNamedByItsSpender() async throws {
        try await Self.following { simnet, store, payer in
            let txid = try await Self.payment(simnet, store, from: payer)
            let replacement = try await simnet.replace(txid)
            let data = try await EngineHarness.event(
                store,
                "address.tx.replaced",
                where: EngineHarness.has("txid", txid)
            )
            #expect(data["data"]?["reason"] == .string("replaced"))
            #expect(data["data"]?["replacedBy"] == .string(replacement))
            #expect(data["data"]?["replacementFollowed"] == .bool(false))
            #expect(data["data"]?["replacementDeltaSat"] == .null)
            #expect(data["data"]?["deltaSat"] == .number("50000"))
        }
    }

    @Test func aReplacementThatStillPaysTheAddressIsFollowedAndSaidSo() async throws {
        try await Self.following { simnet, store, payer in
            let txid = try await Self.payment(simnet, store, from: payer)
            let replacement = try await simnet.replace(txid, payTo: Self.followed)
            // A fee bump that keeps the payment: the same 50,000 sat, a higher fee from the payer's change. The
            // address's summary (balances, counts) does not move, yet the poll sees the swap while the replacement
            // is in the mempool (issue 33, item 7): a merchant accepting at zero confirmations is told at once.
            let value = try #require(await simnet.chain().transaction(replacement)?.outputs.first?.value)
            #expect(value == 50_000)
            let tip = await simnet.tip()
            let replaced = try await EngineHarness.event(
                store,
                "address.tx.replaced",
                where: EngineHarness.has("txid", txid)
            )
            #expect(replaced["data"]?["reason"] == .string("replaced"))
            #expect(replaced["data"]?["replacedBy"] == .string(replacement))
            #expect(replaced["data"]?["replacementFollowed"] == .bool(true))
            #expect(replaced["data"]?["replacementDeltaSat"] == .number("50000"))
            try await EngineHarness.event(
                store,
                "address.tx.unconfirmed",
                where: EngineHarness.has("txid", replacement)
            )
            #expect(await simnet.tip() == tip, "no block was needed")
            let steps = try EngineHarness.events(store).filter { $0["type"] == .string("address.balance.changed") }
            let pending = steps.reduce(Int64(0)) { total, step in
                guard case .number(let text)? = step["data"]?["unconfirmedDeltaSat"] else { return total }
                return total + (Int64(text) ?? 0)
            }
            #expect(pending == 50_000, "\(steps)")
            _ = try await simnet.mine(count: 1)
            let confirmed = try await EngineHarness.event(
                store,
                "address.tx.confirmed",
                where: EngineHarness.has("txid", replacement)
            )
            #expect(confirmed["data"]?["deltaSat"] == .number("50000"))
        }
    }

    @Test func anEvictedPaymentSaysItsInputsAreUnspent() async throws {
        try await Self.following { simnet, store, payer in
            let txid = try await Self.payment(simnet, store, from: payer)
            let gone = try await simnet.evict(txid)
            #expect(gone == [txid])
            let replaced = try await EngineHarness.event(
                store,
                "address.tx.replaced",
                where: EngineHarness.has("txid", txid)
            )
            #expect(replaced["data"]?["reason"] == .string("evicted"))
            #expect(replaced["data"]?["replacedBy"] == .null)
            #expect(replaced["data"]?["replacementFollowed"] == .null)
        }
    }

    @Test func aPaymentWhoseParentLeftSaysItsInputsWentAway() async throws {
        try await Self.following { simnet, store, _ in
            // The payer holds one coin, made by a transaction still in the mempool.
            let payer = "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA"
            let parent = try await simnet.pay(to: payer, amountSat: 80_000)
            let txid = try await simnet.pay(to: Self.followed, amountSat: 30_000, from: payer)
            #expect(await simnet.chain().transaction(txid)?.inputs.map(\.prevout.txid) == [parent])
            try await EngineHarness.event(store, "address.tx.unconfirmed", where: EngineHarness.has("txid", txid))
            // The parent leaves the mempool and takes the payment with it.
            #expect(try await simnet.evict(parent) == [parent, txid])
            let replaced = try await EngineHarness.event(
                store,
                "address.tx.replaced",
                where: EngineHarness.has("txid", txid)
            )
            #expect(replaced["data"]?["reason"] == .string("inputs reorged away"))
            #expect(replaced["data"]?["replacedBy"] == .null)
        }
    }
}

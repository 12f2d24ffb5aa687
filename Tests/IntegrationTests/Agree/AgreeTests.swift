import AsyncHTTPClient
import Foundation
import Testing
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// `agree`: three simnets started with the same seed and driven by the same control calls stay identical, so two
/// are honest and the third lies after a call of its own (a payment mined into a block only it has). With
/// `agree: 2`, the liar's payment is never confirmed, `provider.disagreed` names the liar, and honest payments keep
/// being confirmed.
@Suite(.serialized)
struct AgreeTests {
    /// Followed by a watch whose provider in charge is the liar.
    static let liarsAddress = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"

    static func config(_ simnets: [Simnet], _ data: String) throws -> WatcherConfig {
        let providers = Harness.blockbookProviders(["h1", "liar", "h2"], simnets)
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [\(providers)],
             "watches": [
               {"id": "chain", "type": "blocks", "providers": ["h1", "h2"], "every": "1s"},
               {"id": "honest", "type": "address", "providers": ["h1", "liar", "h2"], "every": "1s", "agree": 2,
                "strategy": "poll", "confirmations": [1, 2], "addresses": ["\(AgreeHarness.honestAddress)"]},
               {"id": "lied", "type": "address", "providers": ["liar", "h1", "h2"], "every": "1s", "agree": 2,
                "strategy": "poll", "confirmations": [1, 2], "addresses": ["\(liarsAddress)"]},
               {"id": "shop", "type": "wallet", "providers": ["h1", "liar", "h2"], "every": "1s", "agree": 2,
                "strategy": "poll", "confirmations": [1], "gap": 3, "descriptor": "\(WalletHarness.descriptor)"},
               {"id": "paid", "type": "tx", "providers": ["h1", "liar", "h2"], "every": "1s", "agree": 3,
                "confirmations": [1], "txid": "\(try AgreeHarness.firstPayment())"}],
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    @Test func theLiarsPaymentIsNeverConfirmedAndHonestPaymentsAre() async throws {
        try await Harness.withThree { simnets, client, data in
            try await run(simnets, client: client, data: data)
        }
    }

    func run(_ simnets: [Simnet], client: HTTPClient, data: String) async throws {
        let liar = simnets[1]
        // Same seed, same calls: the same chain, byte for byte.
        #expect(Set(try await AgreeHarness.each(simnets) { await $0.tip() }).count == 1)
        let config = try Self.config(simnets, data)
        try await EngineHarness.running(config, client: client) { store in
            try await eventually("the baselines") {
                try store.read { txn in
                    try [AgreeHarness.honestAddress, Self.liarsAddress].allSatisfy {
                        try txn.addressState(chain: "btc", address: $0)?.summary != nil
                    } && txn.walletState(chain: "btc", wallet: "shop")?.receive.checkedUpTo != nil
                }
            }
            // While all three agree: confirmed, verified by the provider in charge and the next one asked.
            let paid = try await AgreeHarness.each(simnets) {
                try await $0.pay(to: AgreeHarness.honestAddress, amountSat: 50_000)
            }
            #expect(Set(paid).count == 1)
            let mined = try await AgreeHarness.each(simnets) { try await $0.mine() }
            #expect(Set(mined.map { $0.map(\.hash) }).count == 1)
            let agreed = try await EngineHarness.event(store, "address.tx.confirmed", timeout: .seconds(60)) {
                $0["txid"] == .string(paid[0])
            }
            #expect(AgreeHarness.verifiers(agreed).count == 2, "\(agreed)")
            #expect(AgreeHarness.verifiers(agreed).isSubset(of: ["h1", "liar", "h2"]))
            // The tx watch asks all three (agree 3) while they still agree.
            let followed = try await EngineHarness.event(store, "tx.confirmations", timeout: .seconds(60)) {
                $0["txid"] == .string(paid[0])
            }
            #expect(AgreeHarness.verifiers(followed) == ["h1", "liar", "h2"])

            // The lie: a payment mined into a block only the liar has. The liar's chain still holds the honest
            // tip, so it is not set aside yet: in charge of the other watch, it claims its own payment, which is
            // withheld (a disagreement).
            let lie = try await liar.pay(to: Self.liarsAddress, amountSat: 70_000)
            try await liar.mine()
            let withheld = try await EngineHarness.event(store, "provider.disagreed", timeout: .seconds(60)) {
                $0["txid"] == .string(lie)
            }
            #expect(withheld["data"]?["claimedBy"] == .string("liar"))
            #expect(withheld["data"]?["outcome"]?.stringValue?.hasPrefix("withheld") == true)
            // Then the same calls again: the honest two stay identical, the liar is on a chain of its own.
            let second = try await AgreeHarness.each(simnets) {
                try await $0.pay(to: AgreeHarness.honestAddress, amountSat: 60_000)
            }
            let shop = try WalletHarness.address(.receive, 0)
            let sale = try await AgreeHarness.each(simnets) { try await $0.pay(to: shop, amountSat: 25_000) }
            let blocks = try await AgreeHarness.each(simnets) { try await $0.mine() }
            #expect(second[0] == second[2])
            #expect(blocks[0].map(\.hash) == blocks[2].map(\.hash))
            #expect(blocks[0].map(\.hash) != blocks[1].map(\.hash))

            // The agreed tip sets the liar aside, once, naming where its chain parts from the others'.
            let degraded = try await EngineHarness.event(store, "provider.degraded", timeout: .seconds(60)) {
                $0["provider"] == .string("liar")
            }
            #expect(
                degraded["data"]?["reason"] == .string("on another chain at height \(blocks[0][0].height)"),
                "\(degraded)"
            )
            // The honest payment is confirmed by the two honest providers; the liar's word is left out. Had the
            // verification asked the liar before the tip set it aside, the disagreement names it.
            let truth = try await EngineHarness.event(store, "address.tx.confirmed", timeout: .seconds(60)) {
                $0["txid"] == .string(second[0])
            }
            #expect(AgreeHarness.verifiers(truth) == ["h1", "h2"])
            #expect(truth["data"]?["blockHash"] == .string(blocks[0][0].hash))
            // A wallet's address likewise.
            #expect(sale[0] == sale[2])
            let sold = try await EngineHarness.event(store, "address.tx.confirmed", timeout: .seconds(60)) {
                $0["txid"] == .string(sale[0]) && $0["address"] == .string(shop)
            }
            #expect(AgreeHarness.verifiers(sold) == ["h1", "h2"])
            #expect(sold["data"]?["wallet"]?["id"] == .string("shop"))
            // A disagreement about it (the verification asked the liar before the tip set it aside, or the liar
            // claimed it in its own block) never has the liar holding it in the honest block, and never confirms
            // it elsewhere.
            for named in try AgreeHarness.events(store, "provider.disagreed")
            where named["data"]?["txid"] == .string(second[0]) {
                let liarSaid = named["data"]?["said"]?.arrayValue?.first { $0["provider"] == .string("liar") }
                #expect(liarSaid?["blockHash"] != .string(blocks[0][0].hash), "\(named.serialized())")
                let outcome = named["data"]?["outcome"]?.stringValue ?? ""
                #expect(
                    outcome.hasPrefix("withheld") || outcome.hasPrefix("confirmed in block \(blocks[0][0].hash)"),
                    "\(named.serialized())"
                )
            }
            // The honest chain moves on; its thresholds keep coming, and the lie is still not confirmed.
            _ = try await AgreeHarness.each([simnets[0], simnets[2]]) { try await $0.mine() }
            _ = try await EngineHarness.event(store, "address.tx.confirmations", timeout: .seconds(60)) {
                $0["txid"] == .string(second[0]) && $0["confirmations"] == .number("2")
            }
            let confirmedLie = try AgreeHarness.events(store, "address.tx.confirmed").filter {
                $0["data"]?["txid"] == .string(lie)
            }
            #expect(confirmedLie.isEmpty)
            #expect(
                try AgreeHarness.events(store, "address.tx.confirmations").allSatisfy {
                    $0["data"]?["txid"] != .string(lie)
                }
            )
        }
    }
}

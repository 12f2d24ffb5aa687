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

/// A lie by omission: the provider in charge of an `agree: 2` watch answers the followed address as unused
/// (`POST /control/hide`), on the same chain as the others. It claims nothing, so there is nothing to verify; the
/// second opinion (the next provider's summaries, once per block) finds the payment, its claim is verified by the
/// third, and the payment is announced once, with the balance the honest two hold. On the wall clock, over HTTP.
@Suite(.serialized)
struct AgreeOmissionTests {
    static let followed = AgreeHarness.honestAddress

    /// The watch followed: an address, or a wallet whose receive address 0 is paid.
    static let addressWatch =
        #"{"id": "shop", "type": "address", "providers": ["liar", "h1", "h2"], "every": "1s", "agree": 2, "#
        + #""strategy": "poll", "confirmations": [1], "addresses": ["\#(followed)"]}"#
    static let walletWatch =
        #"{"id": "shop", "type": "wallet", "providers": ["liar", "h1", "h2"], "every": "1s", "agree": 2, "#
        + #""strategy": "poll", "confirmations": [1], "gap": 3, "descriptor": "\#(WalletHarness.descriptor)"}"#

    /// A `tx` watch on the first payment, whose transaction the liar answers as not found.
    static func txWatch() throws -> String {
        #"{"id": "shop", "type": "tx", "providers": ["liar", "h1", "h2"], "every": "1s", "agree": 2, "#
            + #""confirmations": [1], "txid": "\#(try AgreeHarness.firstPayment())"}"#
    }

    static func config(_ simnets: [Simnet], _ data: String, watch: String) throws -> WatcherConfig {
        let providers = Harness.blockbookProviders(["liar", "h1", "h2"], simnets)
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [\(providers)],
             "watches": [
               {"id": "chain", "type": "blocks", "providers": ["h1", "h2"], "every": "1s"},
               \(watch)],
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    @Test(arguments: ["address", "wallet"])
    func aPaymentTheProviderInChargeHidesIsFoundByTheSecondOpinionAndAnnouncedOnce(shape: String) async throws {
        let followed = shape == "address" ? Self.followed : try WalletHarness.address(.receive, 0)
        let watch = shape == "address" ? Self.addressWatch : Self.walletWatch
        try await Harness.withThree { simnets, client, data in
            try await run(simnets, client: client, data: data, watch: watch, followed)
        }
    }

    func run(_ simnets: [Simnet], client: HTTPClient, data: String, watch: String, _ followed: String) async throws {
        let liar = simnets[0]
        await liar.hide(followed)
        let config = try Self.config(simnets, data, watch: watch)
        try await EngineHarness.running(config, client: client) { store in
            try await eventually("the baseline") {
                try store.read { txn in
                    try txn.addressState(chain: "btc", address: followed)?.summary != nil
                        || txn.walletState(chain: "btc", wallet: "shop")?.receive.checkedUpTo != nil
                }
            }
            let paid = try await AgreeHarness.each(simnets) { try await $0.pay(to: followed, amountSat: 50_000) }
            let mined = try await AgreeHarness.each(simnets) { try await $0.mine() }
            #expect(Set(paid).count == 1)
            #expect(Set(mined.map { $0.map(\.hash) }).count == 1, "one chain: the liar only hides the address")
            let confirmed = try await EngineHarness.event(store, "address.tx.confirmed", timeout: .seconds(60)) {
                $0["txid"] == .string(paid[0])
            }
            // Found by h1 (the second opinion), verified by h2, or by the liar, whose transaction lookups tell the
            // truth, when h2 had not mined yet.
            #expect(AgreeHarness.verifiers(confirmed).count == 2, "\(confirmed)")
            #expect(confirmed["data"]?["blockHash"] == .string(mined[0][0].hash))

            // Blocks later, the liar still in charge and still hiding: the payment stays, announced once, and the
            // balance is the one the honest two hold.
            let asked = await simnets[1].stats().families[.blockbook]?.endpoints["/api/v2/address"] ?? 0
            _ = try await AgreeHarness.each(simnets) { try await $0.mine(count: 2) }
            try await eventually(timeout: .seconds(60), "a second opinion at the new tip") {
                await simnets[1].stats().families[.blockbook]?.endpoints["/api/v2/address"] ?? 0 >= asked + 1
            }
            let state = try #require(try store.read { try $0.addressState(chain: "btc", address: followed) })
            #expect(state.txs[paid[0]]?.blockHash == mined[0][0].hash)
            #expect(state.summary?.balanceSat == 50_000)
            let about = try EngineHarness.events(store).filter { $0["data"]?["txid"] == .string(paid[0]) }
            #expect(about.filter { $0["type"] == .string("address.tx.confirmed") }.count == 1)
            #expect(!about.contains { $0["type"] == .string("address.tx.reverted") })
            #expect(!about.contains { $0["type"] == .string("address.tx.replaced") })
            // The balance steps (an unconfirmed one too when a second opinion ran while it waited): one confirmed,
            // the steps adding up to the balance the honest two hold.
            let kind = followed == Self.followed ? "address.balance.changed" : "wallet.balance.changed"
            let steps = try AgreeHarness.events(store, kind).compactMap { $0["data"] }
            #expect(steps.filter { $0["state"] == .string("confirmed") }.count == 1, "\(steps)")
            let deltas = steps.compactMap { step -> Int64? in
                guard case .number(let text)? = step["deltaSat"] else { return nil }
                return Int64(text)
            }
            #expect(deltas.reduce(0, +) == 50_000, "\(steps)")
            #expect(steps.last?["balanceSat"] == .number("50000"), "\(steps)")
        }
    }

    @Test func aTransactionTheProviderInChargeHidesIsConfirmedByTheOthers() async throws {
        let txid = try AgreeHarness.firstPayment()
        try await Harness.withThree { simnets, client, data in
            let second = simnets[1]
            await simnets[0].hide(txid)
            let config = try Self.config(simnets, data, watch: try Self.txWatch())
            try await EngineHarness.running(config, client: client) { store in
                let paid = try await AgreeHarness.each(simnets) {
                    try await $0.pay(to: Self.followed, amountSat: 50_000)
                }
                #expect(paid == [txid, txid, txid])
                let mined = try await AgreeHarness.each(simnets) { try await $0.mine() }
                let confirmed = try await EngineHarness.event(
                    store,
                    "tx.confirmations",
                    timeout: .seconds(60)
                ) { $0["txid"] == .string(txid) }
                #expect(AgreeHarness.verifiers(confirmed) == ["h1", "h2"])
                #expect(confirmed["data"]?["blockHash"] == .string(mined[0][0].hash))
                // Later blocks: announced once, never reverted by the liar's "not found".
                let asked = await second.stats().families[.blockbook]?.endpoints["/api/v2/tx"] ?? 0
                _ = try await AgreeHarness.each(simnets) { try await $0.mine(count: 2) }
                try await eventually(timeout: .seconds(60), "a second opinion at the new tip") {
                    await second.stats().families[.blockbook]?.endpoints["/api/v2/tx"] ?? 0 >= asked + 1
                }
                let about = try EngineHarness.events(store).filter {
                    $0["data"]?["txid"] == .string(txid)
                }
                #expect(about.filter { $0["type"] == .string("tx.confirmations") }.count == 1)
                #expect(!about.contains { $0["type"] == .string("tx.reverted") })
            }
        }
    }
}

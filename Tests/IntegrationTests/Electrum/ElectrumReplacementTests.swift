import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// A fee bump that still pays the followed address the same amount, on an Electrum server (issue 33, item 5): the
/// scripthash status changes but the balance does not, and the original must still be retracted and the
/// replacement named while it is in the mempool, so the unconfirmed steps never count both.
@Suite(.serialized)
struct ElectrumReplacementTests {
    @Test(arguments: [ElectrumSettings.Personality.electrs, .fulcrum])
    func aSameAmountReplacementIsRetractedBeforeTheBlock(_ personality: ElectrumSettings.Personality) async throws {
        try await Harness.withData(ElectrumHarness.simnet(personality)) { simnet, client, data in
            let port = try #require(simnet.electrumPort)
            let followed = EngineHarness.followed
            let json = """
                {"storage": {"path": "\(data)"},
                 "providers": [{"id": "el", "type": "electrum", "chain": "btc",
                                "options": {"url": "tcp://127.0.0.1:\(port)", "timeout": "10s"}}],
                 "watches": [{"id": "shop", "type": "address", "providers": ["el"], "every": "1s",
                              "addresses": ["\(followed)"]}],
                 "sinks": []}
                """
            let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
            let payer = try #require(await simnet.addresses().first { $0.funded && $0.address != followed }?.address)
            try await EngineHarness.running(config, client: client) { store in
                try await eventually(timeout: .seconds(60), "the baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: followed)?.summary } != nil
                }
                let txid = try await simnet.pay(to: followed, amountSat: 20_000, from: payer)
                try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(60)) {
                    $0["txid"] == .string(txid)
                }
                let tip = await simnet.tip()
                let replacement = try await simnet.replace(txid, payTo: followed)
                let replaced = try await EngineHarness.event(store, "address.tx.replaced", timeout: .seconds(30)) {
                    $0["txid"] == .string(txid)
                }
                #expect(replaced["data"]?["replacedBy"] == .string(replacement), "\(replaced)")
                #expect(replaced["data"]?["replacementFollowed"] == .bool(true), "\(replaced)")
                try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(30)) {
                    $0["txid"] == .string(replacement)
                }
                #expect(await simnet.tip() == tip, "no block was needed")
                let steps = try EngineHarness.events(store).filter { $0["type"] == .string("address.balance.changed") }
                let pending = steps.reduce(Int64(0)) { total, step in
                    guard case .number(let text)? = step["data"]?["unconfirmedDeltaSat"] else { return total }
                    return total + (Int64(text) ?? 0)
                }
                #expect(pending == 20_000, "\(steps)")
            }
        }
    }
}

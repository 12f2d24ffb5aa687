import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// `POST /control/replace`: a mempool transaction displaced by one spending the same inputs at a higher fee, seen
/// through the Blockbook face as real Blockbook shows it (the replaced txid is "not found", gone from histories).
@Suite("Replace-by-fee")
struct ReplaceTests {
    static let payee = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
    static let chain = ChainParameters(seed: 12, txsPerBlock: 1, mempoolTxsPerBlock: 0)

    @Test func aReplacementSpendsTheSameInputsAtAHigherFeeAndTheOriginalIsGone() async throws {
        try await Simnet.with(SimnetConfiguration(chain: Self.chain)) { simnet in
            let paid = try await SimnetHarness.post(
                simnet,
                "/control/tx",
                json: #"{"to": "\#(Self.payee)", "amountSat": 40000}"#
            ).json()
            guard case .string(let old)? = paid["txid"] else { throw CancellationError() }
            let before = try await SimnetHarness.get(simnet, "/api/v2/tx/\(old)").json()
            let answer = try await SimnetHarness.post(simnet, "/control/replace", json: #"{"txid": "\#(old)"}"#)
            #expect(answer.status == 200)
            guard case .string(let new)? = try answer.json()["txid"] else { throw CancellationError() }
            #expect(new != old)

            let gone = try await SimnetHarness.get(simnet, "/api/v2/tx/\(old)")
            #expect(gone.status == 400)
            #expect(gone.text.contains("not found"))
            let replacement = try await SimnetHarness.get(simnet, "/api/v2/tx/\(new)").json()
            func outpoints(_ tx: JSONValue) -> [String] {
                (tx["vin"]?.arrayValue ?? []).map { "\($0["txid"]?.stringValue ?? ""):\($0["vout"] ?? .null)" }
            }
            #expect(outpoints(replacement) == outpoints(before))
            let oldFee = Int64(before["fees"]?.stringValue ?? "") ?? 0
            let newFee = Int64(replacement["fees"]?.stringValue ?? "") ?? 0
            #expect(newFee > oldFee)
            #expect(replacement["rbf"] == .bool(true))
            let paysPayee = (replacement["vout"]?.arrayValue ?? []).contains {
                $0["addresses"]?[0] == .string(Self.payee)
            }
            #expect(!paysPayee)

            // The parent of the first input names its new spender, with `?spending=true` only.
            let input = try #require(replacement["vin"]?[0])
            let parentTxid = try #require(input["txid"]?.stringValue)
            guard case .number(let voutText)? = input["vout"] ?? .number("0"), let vout = Int(voutText) else {
                throw CancellationError()
            }
            let parent = try await SimnetHarness.get(simnet, "/api/v2/tx/\(parentTxid)?spending=true").json()
            #expect(parent["vout"]?[vout]?["spentTxId"] == .string(new))
            #expect(parent["vout"]?[vout]?["spentIndex"] == .number("0"))
            let plain = try await SimnetHarness.get(simnet, "/api/v2/tx/\(parentTxid)").json()
            #expect(plain["vout"]?[vout]?["spent"] == .bool(true))
            #expect(plain["vout"]?[vout]?["spentTxId"] == nil)

            let history = try await SimnetHarness.get(simnet, "/api/v2/address/\(Self.payee)?details=txs").json()
            #expect(history["unconfirmedTxs"] == nil || history["unconfirmedTxs"] == .number("0"))
            #expect(history["transactions"] == nil)

            let again = try await SimnetHarness.post(simnet, "/control/replace", json: #"{"txid": "\#(old)"}"#)
            #expect(again.status == 400)
            #expect(again.text.contains("not in the mempool"))
            // The replacement is mined like any other transaction.
            _ = try await SimnetHarness.post(simnet, "/control/mine", json: #"{"count": 1}"#)
            let mined = try await SimnetHarness.get(simnet, "/api/v2/tx/\(new)").json()
            #expect(mined["confirmations"] == .number("1"))
        }
    }

    @Test func descendantsOfTheReplacedTransactionGoToo() throws {
        var model = ChainModel(parameters: Self.chain)
        let payee = try SimAddressParser.decode(Self.payee)
        let outside = try SimAddressParser.decode("1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA")
        let parent = try model.pay(to: payee, amountSat: 50_000)
        let child = try model.pay(to: outside, amountSat: 10_000, from: payee)
        #expect(child.inputs.map(\.prevout.txid) == [parent.txid])
        let replacement = try model.replace(parent.txid)
        #expect(model.mempool == [replacement.txid])
        #expect(model.transaction(child.txid) == nil)
        #expect(throws: ChainModel.Failure.notInMempool(child.txid)) { try model.replace(child.txid) }
        _ = try model.mine(count: 1)
        #expect(model.truths().first { $0.address == Self.payee }?.confirmedBalanceSat ?? 0 == 0)
    }

    @Test func payToKeepsThePaymentAndEvictFreesTheInputs() async throws {
        try await Simnet.with(SimnetConfiguration(chain: Self.chain)) { simnet in
            let old = try await simnet.pay(to: Self.payee, amountSat: 40_000)
            let answer = try await SimnetHarness.post(
                simnet,
                "/control/replace",
                json: #"{"txid": "\#(old)", "payTo": "\#(Self.payee)"}"#
            )
            #expect(answer.status == 200)
            guard case .string(let new)? = try answer.json()["txid"] else { throw CancellationError() }
            let model = await simnet.chain()
            let replacement = try #require(model.transaction(new))
            let before = try #require(model.transaction(new)?.inputs.map(\.prevout))
            #expect(replacement.outputs.first { $0.address == Self.payee }?.value == 40_000)
            #expect(replacement.outputs.count == 2)
            let bad = try await SimnetHarness.post(
                simnet,
                "/control/replace",
                json: #"{"txid": "\#(new)", "payTo": "nonsense"}"#
            )
            #expect(bad.status == 400)
            #expect(bad.text.contains("invalid address nonsense"))

            let evicted = try await SimnetHarness.post(simnet, "/control/evict", json: #"{"txid": "\#(new)"}"#)
            #expect(evicted.status == 200)
            #expect(try evicted.json()["evicted"] == .array([.string(new)]))
            let after = await simnet.chain()
            #expect(after.transaction(new) == nil)
            #expect(!after.mempool.contains(new))
            for outpoint in before { #expect(after.spender(of: outpoint) == nil) }
            let gone = try await SimnetHarness.get(simnet, "/api/v2/tx/\(new)")
            #expect(gone.status == 400)
            let again = try await SimnetHarness.post(simnet, "/control/evict", json: #"{"txid": "\#(new)"}"#)
            #expect(again.status == 400)
            #expect(again.text.contains("not in the mempool"))
            let method = try await SimnetHarness.get(simnet, "/control/evict")
            #expect(method.status == 405)
        }
    }
}

import Foundation
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// The simnet pays any valid mainnet address (a wallet's derived ones included) and spends from one: `POST
/// /control/tx` with `from` spends that address's unspent outputs, the change going to `change` (default: back to
/// `from`).
@Suite("Spending from an address")
struct SpendFromTests {
    /// BIP84 and BIP86 account descriptors and BIP44/BIP49 ones (shared/fixtures/wallets/
    /// merchant_descriptors_computed.json): one address of each script type a wallet derives.
    static let descriptors = [
        "pkh([73c5da0a/44h/0h/0h]xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj/<0;1>/*)#kw28l7md",
        "sh(wpkh([73c5da0a/49h/0h/0h]xpub6C6nQwHaWbSrzs5tZ1q7m5R9cPK9eYpNMFesiXsYrgc1P8bvLLAet9JfHjYXKjToD8cBRswJXXbbFpXgwsswVPAZzKMa1jUp2kVkGVUaJa7/<0;1>/*))#zmygnj3e",
        "wpkh([73c5da0a/84h/0h/0h]xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V/<0;1>/*)#qf45pmyh",
        "tr([73c5da0a/86h/0h/0h]xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3VCECoY49yfdDEHGCtMMj92pReUsQ/<0;1>/*)#xf07c0qd",
    ]

    @Test func derivedAddressesOfEveryScriptTypeArePaid() async throws {
        var model = ChainModel(parameters: ChainParameters(seed: 3, txsPerBlock: 1, mempoolTxsPerBlock: 0))
        for text in Self.descriptors {
            let wallet = try WalletDescriptor(parsing: text, network: .mainnet)
            for branch in [WalletDescriptor.Branch.receive, .change] {
                let derived = try wallet.address(branch, index: 7)
                let address = try SimAddressParser.decode(derived.address.string)
                #expect(address.scriptPubKey == derived.scriptPubKey, "\(derived)")
                let tx = try model.pay(to: address, amountSat: 12_345)
                #expect(tx.outputs.contains { $0.address == derived.address.string && $0.value == 12_345 })
            }
        }
        _ = try model.mine(count: 1)
        let paid = model.truths().filter { $0.confirmedBalanceSat == 12_345 && !$0.funded }
        #expect(paid.count == 8)
    }

    @Test func aSpendFromAnAddressTakesItsUnspentOutputsAndSendsTheChangeWhereAsked() throws {
        var model = ChainModel(parameters: ChainParameters(seed: 4, txsPerBlock: 1, mempoolTxsPerBlock: 0))
        let wallet = try WalletDescriptor(parsing: Self.descriptors[2], network: .mainnet)
        let from = try SimAddressParser.decode(try wallet.address(.receive, index: 0).address.string)
        let change = try SimAddressParser.decode(try wallet.address(.change, index: 0).address.string)
        let outside = try SimAddressParser.decode("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")
        let first = try model.pay(to: from, amountSat: 100_000)
        _ = try model.mine(count: 1)
        // A second output, still in the mempool, is spendable too.
        let second = try model.pay(to: from, amountSat: 30_000)
        let spend = try model.pay(to: outside, amountSat: 110_000, from: from, change: change)
        #expect(Set(spend.inputs.map(\.prevout.txid)) == [first.txid, second.txid])
        #expect(spend.inputs.allSatisfy { $0.address == from.string })
        #expect(spend.outputs.first == SimOutput(address: outside.string, value: 110_000))
        #expect(spend.outputs.last?.address == change.string)
        #expect(spend.fee == 600 && spend.outputs.last?.value == 130_000 - 110_000 - 600)
        _ = try model.mine(count: 1)
        let truths = Dictionary(uniqueKeysWithValues: model.truths().map { ($0.address, $0) })
        #expect(truths[from.string]?.confirmedBalanceSat == 0)
        #expect(truths[change.string]?.confirmedBalanceSat == 19_400)
        // Nothing left to spend: refused with what the address holds.
        #expect(throws: ChainModel.Failure.insufficientFundsAt(from.string, needed: 1_450, available: 0)) {
            _ = try model.pay(to: outside, amountSat: 1_000, from: from)
        }
        // Without a change address, the change goes back to `from`.
        _ = try model.pay(to: change, amountSat: 5_000)
        _ = try model.mine(count: 1)
        let back = try model.pay(to: outside, amountSat: 10_000, from: change)
        #expect(back.outputs.last?.address == change.string)
    }

    @Test func theControlAPITakesFromAndChange() async throws {
        try await Simnet.with { simnet in
            let from = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
            let change = "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el"
            _ = try await SimnetHarness.post(simnet, "/control/tx", json: #"{"to":"\#(from)","amountSat":50000}"#)
            let spent = try await SimnetHarness.post(
                simnet,
                "/control/tx",
                json:
                    #"{"to":"1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA","amountSat":20000,"from":"\#(from)","change":"\#(change)"}"#
            )
            let txid = try #require(try spent.json()["txid"]?.stringValue)
            let tx = try await SimnetHarness.get(simnet, "/api/v2/tx/\(txid)").json()
            #expect(tx["vin"]?[0]?["addresses"]?[0]?.stringValue == from)
            #expect(tx["vout"]?[1]?["addresses"]?[0]?.stringValue == change)
            let broke = try await SimnetHarness.post(
                simnet,
                "/control/tx",
                json: #"{"to":"\#(change)","amountSat":900000,"from":"\#(from)"}"#
            )
            #expect(broke.status == 400)
            #expect(try broke.json()["error"]?.stringValue?.contains("holds 0 sat unspent") == true)
            let orphan = try await SimnetHarness.post(
                simnet,
                "/control/tx",
                json: #"{"to":"\#(from)","amountSat":1000,"change":"\#(change)"}"#
            )
            #expect(try orphan.json()["error"]?.stringValue == "change needs from")
        }
    }
}

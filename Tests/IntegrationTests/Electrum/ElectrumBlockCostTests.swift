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

@testable import WatcherApp

/// What a block costs an `address` watch on an Electrum server's push (the simnet's Electrum face, both
/// personalities): one header notification, then history reads only for the scripts whose status changed, not one
/// per followed address. The watch's `every` is an hour, so only the push and the blocks start work.
@Suite(.serialized)
struct ElectrumBlockCostTests {
    /// Followed addresses: the BIP84 test wallet's receive addresses 100 to 119.
    static let followed: [String] = (100..<120).map { (try? WalletHarness.address(.receive, UInt32($0))) ?? "" }

    static let history = "blockchain.scripthash.get_history"
    static let balance = "blockchain.scripthash.get_balance"

    /// `after` less `before`, by method, without the zeros.
    static func delta(_ after: [String: Int], _ before: [String: Int]) -> [String: Int] {
        after.merging(before.mapValues { -$0 }) { $0 + $1 }.filter { $0.value != 0 }
    }

    @Test(arguments: [ElectrumSettings.Personality.electrs, .fulcrum])
    func aBlockConfirmingAKnownPaymentReadsOnlyItsScript(_ personality: ElectrumSettings.Personality) async throws {
        let configuration = ElectrumHarness.simnet(personality)
        try await Harness.withData(configuration) { simnet, client, data in
            let port = try #require(simnet.electrumPort)
            let list = Self.followed.map { "\"\($0)\"" }.joined(separator: ", ")
            let json = """
                {"storage": {"path": "\(data)"},
                 "providers": [{"id": "el", "type": "electrum", "chain": "btc",
                                "options": {"url": "tcp://127.0.0.1:\(port)", "timeout": "10s"}}],
                 "watches": [{"id": "shop", "type": "address", "providers": ["el"], "every": "1h",
                              "addresses": [\(list)]}],
                 "sinks": []}
                """
            let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
            try await EngineHarness.running(config, client: client) { store in
                try await eventually(timeout: .seconds(120), "the baseline and the subscriptions") {
                    let known = try store.read { txn in
                        try Self.followed.allSatisfy { try txn.addressState(chain: "btc", address: $0)?.summary != nil }
                    }
                    let subscribed = await ElectrumHarness.histories(simnet)["blockchain.scripthash.subscribe"] ?? 0
                    return known && subscribed >= Self.followed.count
                }
                let txid = try await simnet.pay(to: Self.followed[3], amountSat: 40_000)
                try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(60)) {
                    $0["txid"] == .string(txid)
                }
                let before = await ElectrumHarness.histories(simnet)
                let mined = try await simnet.mine(count: 1)
                try await EngineHarness.event(store, "address.tx.confirmed", timeout: .seconds(60)) {
                    $0["txid"] == .string(txid) && $0["blockHash"] == .string(mined[0].hash)
                }
                let confirmed = Self.delta(await ElectrumHarness.histories(simnet), before)
                // A second, empty block, then a payment to another address: by its announcement, what either
                // block started has had time to ask, and an empty block has no script to read at all.
                let empty = try await simnet.mine(count: 1)
                try await eventually(timeout: .seconds(60), "the empty block stored") {
                    try store.read { try $0.tip(chain: "btc") }?.hash == empty[0].hash
                }
                let sentinel = try await simnet.pay(to: Self.followed[11], amountSat: 30_000)
                try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(60)) {
                    $0["txid"] == .string(sentinel)
                }
                let quiet = Self.delta(await ElectrumHarness.histories(simnet), before.merging(confirmed) { $0 + $1 })
                print(
                    "electrum block cost (\(personality)): the block confirming the payment \(confirmed.sorted { $0.key < $1.key }); an empty block and a mempool payment to another address \(quiet.sorted { $0.key < $1.key })"
                )
                // The block confirming the payment: the push reads the paid script's history (1); the engine
                // reads that address (summary, history page, and the summary after a confirmation: 3 histories,
                // 2 balances), and once more when the tip job committed the block during that read (its
                // observation is dropped and redone): 4 to 7 histories, 2 to 4 balances, where each is asked. A
                // round of every followed address per block would be 20 more of each.
                // Where the push lends its statuses (not Fulcrum: ElectrumStatusBook), the engine's reads at the new
                // status are answered from what the push read there: 1 history (the push's) and 1 balance.
                let lent = personality != .fulcrum
                let histories = lent ? 1...2 : 4...7
                let balances = lent ? 1...2 : 2...4
                #expect(histories.contains(confirmed[Self.history] ?? 0), "the confirming block: \(confirmed)")
                #expect(balances.contains(confirmed[Self.balance] ?? 0), "the confirming block: \(confirmed)")
                // The empty block reads no script at all; the payment after it costs the push's history read and
                // the engine's summary, history page (the push's read again, where lent) and the first output's
                // history placing the transaction.
                #expect(quiet[Self.history] == (lent ? 2 : 4), "an empty block and a payment: \(quiet)")
                #expect(quiet[Self.balance] == 1, "an empty block and a payment: \(quiet)")
            }
        }
    }
}

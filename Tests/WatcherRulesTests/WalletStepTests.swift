import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// `wallet.balance.changed` as a fact of the chain: two instances that look at a wallet at different moments
/// announce the same steps, with the same ids and the same data, and the steps add up to the balance.
struct WalletStepTests {
    static let addresses = ["bc1qfour", "bc1qfive"]
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// One instance: the wallet's address states and its `wallet.balance.changed` events.
    struct Instance {
        var states: [String: AddressState] = [:]
        var wallet = WalletState(chain: "btc", wallet: "shop", descriptor: "d")
        var events: [NewEvent] = []

        /// One pass over the wallet's addresses, committed at once: each address's summary and history.
        mutating func pass(tip: Int, _ histories: [String: [AddressTx]]) {
            var change = WalletLedger.Change()
            for (index, address) in WalletStepTests.addresses.enumerated() {
                var entry = FollowedAddress(address: address, watch: "shop")
                entry.wallet = WalletAddressRef(wallet: "shop", branch: .receive, index: index)
                let context = AddressReducer.Context(chain: "btc", entry: entry, now: WalletStepTests.now)
                let history = histories[address] ?? []
                let confirmed = history.filter { $0.blockHeight != nil }
                let summary = AddressSummary(
                    address: address,
                    balanceSat: confirmed.reduce(0) { $0 + $1.deltaSat },
                    totalReceivedSat: nil,
                    totalSentSat: nil,
                    txCount: confirmed.count,
                    unconfirmedBalanceSat: history.filter { $0.blockHeight == nil }.reduce(0) { $0 + $1.deltaSat },
                    unconfirmedTxCount: history.count - confirmed.count
                )
                let before = states[address]
                let (after, emitted) = AddressReducer.observe(
                    before ?? AddressState(chain: "btc", address: address),
                    AddressReducer.Observation(summary: summary, history: history, complete: true, tipHeight: tip),
                    context: context
                )
                #expect(!emitted.contains { $0.type == "address.balance.changed" })
                WalletLedger.record(&change, before: before, after: after, events: emitted)
                states[address] = after
            }
            let context = WalletLedger.Context(chain: "btc", wallet: "shop", label: nil, now: WalletStepTests.now)
            let emitted: [NewEvent]
            (wallet, emitted) = WalletLedger.apply(
                wallet,
                change,
                addresses: WalletStepTests.addresses.compactMap { states[$0] },
                context: context
            )
            events += emitted
        }

        /// Each event's id with its `data`.
        var facts: [String: JSONValue] {
            var result: [String: JSONValue] = [:]
            for event in events { result[event.id] = try? JSONValue.parse(event.body)["data"] }
            return result
        }
    }

    static func tx(_ txid: String, _ delta: Int64, block: Int? = nil) -> AddressTx {
        AddressTx(txid: txid, blockHeight: block, blockHash: block.map { "hash\($0)" }, time: nil, deltaSat: delta)
    }

    /// `pay` reaches one address through the mempool, then confirms in block 101 with `split`, which pays both
    /// addresses. One instance sees the mempool, the other only the block.
    @Test func twoInstancesLookingAtDifferentMomentsAnnounceTheSameSteps() throws {
        var early = Instance()
        var late = Instance()
        early.pass(tip: 100, [:])
        early.pass(tip: 100, ["bc1qfour": [Self.tx("pay", 50_000)]])
        late.pass(tip: 100, [:])
        let mined = [
            "bc1qfour": [Self.tx("split", 20_000, block: 101), Self.tx("pay", 50_000, block: 101)],
            "bc1qfive": [Self.tx("split", 30_000, block: 101)],
        ]
        early.pass(tip: 101, mined)
        late.pass(tip: 101, mined)
        #expect(early.events.count == 4)
        #expect(early.facts == late.facts)
        #expect(early.events.map(\.id) == late.events.map(\.id))
        // In chain order, each confirmed step carries the confirmed balance right after it.
        let steps = late.events.compactMap { try? JSONValue.parse($0.body)["data"] }
        #expect(
            steps.map { "\($0["txid"]?.stringValue ?? "")|\($0["state"]?.stringValue ?? "")" } == [
                "pay|unconfirmed", "pay|confirmed", "split|unconfirmed", "split|confirmed",
            ]
        )
        #expect(steps[1]["balanceSat"] == .number("50000") && steps[3]["balanceSat"] == .number("100000"))
        #expect(steps[3]["amountSat"] == .number("50000"))
        // The steps add up to the balances.
        let confirmed = steps.reduce(Int64(0)) { $0 + (Int64($1["confirmedDeltaSat"]?.serialized() ?? "") ?? 0) }
        let unconfirmed = steps.reduce(Int64(0)) {
            $0 + (Int64($1["unconfirmedDeltaSat"]?.serialized() ?? "") ?? 0)
        }
        #expect(confirmed == late.wallet.balanceSat && confirmed == 100_000)
        #expect(unconfirmed == late.wallet.unconfirmedSat && unconfirmed == 0)
    }
}

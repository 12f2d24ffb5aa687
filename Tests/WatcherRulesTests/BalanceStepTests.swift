import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// `address.balance.changed` as facts of the chain: one per transaction step, the same whoever observes it.
struct BalanceStepTests {
    let entry = FollowedAddress(address: "bc1qaddr", label: "Shop", thresholds: [1], watch: "shop")
    var context: AddressReducer.Context {
        AddressReducer.Context(chain: "btc", entry: entry, now: Date(timeIntervalSince1970: 1_800_000_000))
    }

    func summary(_ balance: Int64, unconfirmed: Int64 = 0, txs: Int, mempool: Int = 0) -> AddressSummary {
        AddressSummary(
            address: "bc1qaddr",
            balanceSat: balance,
            totalReceivedSat: nil,
            totalSentSat: nil,
            txCount: txs,
            unconfirmedBalanceSat: unconfirmed,
            unconfirmedTxCount: mempool
        )
    }

    func tx(_ id: String, _ height: Int?, _ delta: Int64) -> AddressTx {
        AddressTx(txid: id, blockHeight: height, blockHash: height.map { "b\($0)" }, time: nil, deltaSat: delta)
    }

    func observe(_ state: AddressState, _ summary: AddressSummary, _ history: [AddressTx], tip: Int)
        -> (AddressState, [NewEvent])
    {
        AddressReducer.observe(
            state,
            .init(summary: summary, history: history, complete: true, tipHeight: tip),
            context: context
        )
    }

    var empty: AddressState { AddressState(chain: "btc", address: "bc1qaddr") }

    static func steps(_ events: [NewEvent]) -> [NewEvent] { events.filter { $0.type == "address.balance.changed" } }

    static func sum(_ events: [NewEvent], _ key: String) -> Int64 {
        steps(events).reduce(0) { total, event in
            guard case .number(let text)? = event.data?[key] else { return total }
            return total + (Int64(text) ?? 0)
        }
    }

    @Test func twoInstancesPollingAtDifferentMomentsAnnounceTheSameSteps() {
        // A polls while the payments wait in the mempool, then after the block; B polls only after the block.
        var (a, _) = observe(empty, summary(0, txs: 0), [], tip: 100)
        var (b, _) = observe(empty, summary(0, txs: 0), [], tip: 100)
        var eventsA: [NewEvent] = []
        var events: [NewEvent]
        (a, events) = observe(a, summary(0, unconfirmed: 70_000, txs: 0, mempool: 1), [tx("p1", nil, 70_000)], tip: 100)
        eventsA += events
        let mined = [tx("p2", 101, 20_000), tx("p1", 101, 70_000)]
        (a, events) = observe(a, summary(90_000, txs: 2), mined, tip: 101)
        eventsA += events
        let eventsB: [NewEvent]
        (b, eventsB) = observe(b, summary(90_000, txs: 2), mined, tip: 101)
        // Every step B announces is one A announced, with the same body: one row each in a shared table.
        let stepsA = Dictionary(uniqueKeysWithValues: Self.steps(eventsA).map { ($0.id, $0.body) })
        for step in Self.steps(eventsB) { #expect(stepsA[step.id] == step.body, "\(step.data?["txid"] ?? .null)") }
        #expect(Set(Self.steps(eventsB).map(\.id)) == Set(stepsA.keys))
        for events in [eventsA, eventsB] {
            #expect(Self.sum(events, "deltaSat") == 90_000)
            #expect(Self.sum(events, "confirmedDeltaSat") == 90_000)
            #expect(Self.sum(events, "unconfirmedDeltaSat") == 0)
        }
    }

    @Test func severalTransactionsInOnePollAreStepsInChainOrderWithTheBalanceAfterEach() {
        var (state, events) = observe(empty, summary(0, txs: 0), [], tip: 100)
        let history = [
            tx("m2", nil, 5), tx("m1", nil, 7), tx("zz", 102, -300), tx("aa", 102, 1_000), tx("cc", 101, 400),
        ]
        (state, events) = observe(state, summary(1_100, unconfirmed: 12, txs: 3, mempool: 2), history, tip: 102)
        let steps = Self.steps(events).map { event -> String in
            let data = event.data
            return [data?["txid"], data?["state"], data?["balanceSat"]].map { $0?.serialized() ?? "-" }
                .joined(separator: " ")
        }
        #expect(
            steps == [
                #""cc" "unconfirmed" null"#, #""cc" "confirmed" 400"#,
                #""aa" "unconfirmed" null"#, #""aa" "confirmed" 1400"#,
                #""zz" "unconfirmed" null"#, #""zz" "confirmed" 1100"#,
                #""m1" "unconfirmed" null"#, #""m2" "unconfirmed" null"#,
            ]
        )
        #expect(Self.sum(events, "deltaSat") == 1_112)
    }

    @Test func aReorgedPaymentThatIsReplacedLeavesBothBalances() {
        var (state, events) = observe(empty, summary(0, txs: 0), [], tip: 100)
        var all: [NewEvent] = []
        (state, events) = observe(state, summary(50_000, txs: 1), [tx("p", 101, 50_000)], tip: 101)
        all += events
        (state, events) = AddressReducer.revert(state, fork: 100, newChain: [101: "x101"], context: context)
        all += events
        #expect(Self.steps(events).first?.data?["state"] == .string("reverted"))
        (state, events) = AddressReducer.observe(
            state,
            .init(
                summary: summary(0, txs: 0),
                history: [],
                complete: true,
                tipHeight: 101,
                lookups: ["p": ChainTransaction?.none]
            ),
            context: context
        )
        all += events
        #expect(
            Self.steps(all).compactMap { $0.data?["state"]?.stringValue } == [
                "unconfirmed", "confirmed", "reverted", "replaced",
            ]
        )
        #expect(Self.sum(all, "confirmedDeltaSat") == 0 && Self.sum(all, "unconfirmedDeltaSat") == 0)
        #expect(Set(all.map(\.id)).count == all.count)
    }

    @Test func theIdIsTheTransactionItsStateAndItsBlock() {
        let (state, _) = observe(empty, summary(0, txs: 0), [], tip: 100)
        let (_, events) = observe(state, summary(3, txs: 1), [tx("t", 101, 3)], tip: 101)
        let ids = Self.steps(events).map(\.id)
        #expect(
            ids == [
                EventBuilder.id(type: "address.balance.changed", fact: ["btc", "bc1qaddr", "t", "unconfirmed"]),
                EventBuilder.id(type: "address.balance.changed", fact: ["btc", "bc1qaddr", "t", "confirmed", "b101"]),
            ]
        )
    }
}

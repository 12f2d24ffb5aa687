import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// The address rules, on values alone: payments, baselines, pages, drops, restarts and reorgs.
struct AddressReducerTests {
    let entry = FollowedAddress(address: "bc1qaddr", label: "Savings", thresholds: [1, 3, 6], watch: "savings")
    var context: AddressReducer.Context {
        AddressReducer.Context(
            chain: "btc",
            entry: entry,
            prices: [PriceQuote(currency: "USD", price: Decimal(string: "65000.50")!, time: Date(), provider: "cb")],
            now: Date(timeIntervalSince1970: 1_800_000_000)
        )
    }

    func summary(_ balance: Int64, unconfirmed: Int64 = 0, txs: Int, mempool: Int = 0) -> AddressSummary {
        AddressSummary(
            address: "bc1qaddr",
            balanceSat: balance,
            totalReceivedSat: balance,
            totalSentSat: 0,
            txCount: txs,
            unconfirmedBalanceSat: unconfirmed,
            unconfirmedTxCount: mempool
        )
    }

    func tx(_ id: String, _ height: Int?, _ delta: Int64 = 1_000) -> AddressTx {
        AddressTx(txid: id, blockHeight: height, blockHash: height.map { "b\($0)" }, time: nil, deltaSat: delta)
    }

    func observe(
        _ state: AddressState,
        _ summary: AddressSummary,
        _ history: [AddressTx]?,
        tip: Int,
        complete: Bool = true,
        lookups: [String: ChainTransaction?] = [:]
    ) -> (AddressState, [NewEvent]) {
        AddressReducer.observe(
            state,
            .init(summary: summary, history: history, complete: complete, tipHeight: tip, lookups: lookups),
            context: context
        )
    }

    var empty: AddressState { AddressState(chain: "btc", address: "bc1qaddr") }

    @Test func paymentLifecycle() throws {
        var (state, events) = observe(empty, summary(0, txs: 0), [], tip: 100)
        #expect(events.isEmpty)
        (state, events) = observe(
            state,
            summary(0, unconfirmed: 150_000, txs: 0, mempool: 1),
            [tx("t1", nil, 150_000)],
            tip: 100
        )
        #expect(events.map(\.type) == ["address.tx.unconfirmed", "address.balance.changed"])
        #expect(events[0].data?["deltaBtc"] == .string("0.00150000"))
        #expect(events[0].data?["fiat"]?["USD"] == .string("97.5"))
        (state, events) = observe(state, summary(150_000, txs: 1), [tx("t1", 101, 150_000)], tip: 101)
        #expect(events.map(\.type) == ["address.tx.confirmed", "address.tx.confirmations", "address.balance.changed"])
        let balance = try #require(events.last?.data)
        #expect(balance["confirmedDeltaSat"] == .number("150000"))
        #expect(balance["unconfirmedDeltaSat"] == .number("-150000"))
        #expect(balance["deltaSat"] == .number("0"))
        (state, events) = AddressReducer.tip(state, height: 103, context: context)
        #expect(events.count == 1)
        (state, events) = AddressReducer.tip(state, height: 103, context: context)
        #expect(events.isEmpty)
        (state, events) = AddressReducer.tip(state, height: 110, context: context)
        #expect(events.count == 1 && state.txs["t1"]?.announced == [1, 3, 6])
    }

    @Test func theFirstObservationAnnouncesTheMempoolAndNewBlocksOnly() {
        // Tip 100 at the first poll: history confirmed up to 100 is the silent baseline.
        let history = [tx("new", nil), tx("recent", 100), tx("old", 90)]
        let (state, events) = observe(empty, summary(2_000, unconfirmed: 1_000, txs: 2, mempool: 1), history, tip: 100)
        // The mempool is announced, with its balance step; the confirmed history is the silent baseline.
        #expect(events.map(\.type) == ["address.tx.unconfirmed", "address.balance.changed"])
        #expect(state.since == 101)
        // Old history never gets later thresholds.
        let (_, later) = AddressReducer.tip(state, height: 120, context: context)
        #expect(later.isEmpty)
    }

    @Test func paymentsMinedBetweenStartUpAndTheFirstPollAreAnnounced() {
        var entry = self.entry
        entry.from = 100
        var context = self.context
        context.entry = entry
        let (state, events) = AddressReducer.observe(
            empty,
            .init(
                summary: summary(2_000, txs: 2),
                history: [tx("paid", 101), tx("old", 99)],
                complete: true,
                tipHeight: 101
            ),
            context: context
        )
        // First seen in a block: it enters as unconfirmed, then confirms (the same steps as one seen in the mempool).
        #expect(
            events.map(\.type) == [
                "address.tx.confirmed", "address.tx.confirmations", "address.balance.changed",
                "address.balance.changed",
            ]
        )
        #expect(events.compactMap { $0.data?["state"]?.stringValue } == ["unconfirmed", "confirmed"])
        #expect(events[3].data?["balanceSat"] == .number("2000"))
        #expect(events[0].data?["txid"] == .string("paid"))
        #expect(state.txs["old"]?.announced == [1, 3, 6])
    }

    @Test func repeatedAndStaleObservationsAnnounceNothing() {
        var (state, _) = observe(empty, summary(0, txs: 0), [], tip: 100)
        let (first, events) = observe(state, summary(1_000, txs: 1), [tx("t1", 101)], tip: 101)
        #expect(events.count == 4)
        state = first
        let (again, repeated) = observe(state, summary(1_000, txs: 1), [tx("t1", 101)], tip: 101)
        #expect(repeated.isEmpty && again == state)
        // A provider behind the others (fewer confirmed transactions) is not believed.
        let (stale, behind) = observe(
            state,
            summary(0, unconfirmed: 1_000, txs: 0, mempool: 1),
            [tx("t1", nil)],
            tip: 101
        )
        #expect(behind.isEmpty && stale == state)
    }

    @Test func moreTransactionsThanAPageAreAllRead() {
        var state = empty
        state.summary = summary(0, txs: 5)
        for index in 0..<5 {
            state.txs["old\(index)"] = .init(
                txid: "old\(index)",
                blockHeight: 50 + index,
                blockHash: nil,
                deltaSat: 1,
                announced: [1, 3, 6]
            )
        }
        let fresh = summary(60_000, txs: 65)
        let request = AddressReducer.historyRequest(stored: state, summary: fresh, tipHeight: 100, context: context)
        guard case .fetch(let limit, let after) = request else {
            Issue.record("expected a fetch, got \(request)")
            return
        }
        #expect(limit >= 60)
        #expect(after == "old4")
        let history = (0..<60).map { tx("p\($0)", 100 - $0 / 20) }
        let (next, events) = observe(state, fresh, history, tip: 100)
        #expect(events.filter { $0.type == "address.tx.confirmed" }.count == 60)
        #expect(next.txs.count == 65)
        #expect(AddressReducer.widened(limit: 50) == 200)
        #expect(AddressReducer.widened(limit: AddressReducer.maximumHistoryLimit) == nil)
        #expect(AddressReducer.historyRequest(stored: next, summary: fresh, tipHeight: 100, context: context) == .none)
    }

    /// Issue 33, item 7: a replacement paying the same amount leaves the summary as it was; while a mempool
    /// transaction is pending, the history is read anyway, and once nothing is pending a still summary reads none.
    @Test func aPendingPaymentIsReadAgainWhileTheSummaryStandsStill() {
        var state = empty
        state.summary = summary(0, unconfirmed: 5, txs: 0, mempool: 1)
        state.txs["u"] = .init(txid: "u", blockHeight: nil, blockHash: nil, deltaSat: 5)
        let same = summary(0, unconfirmed: 5, txs: 0, mempool: 1)
        let request = AddressReducer.historyRequest(stored: state, summary: same, tipHeight: 100, context: context)
        #expect(request != .none)
        state.txs["u"]?.blockHeight = 100
        state.summary = summary(5, txs: 1)
        #expect(
            AddressReducer.historyRequest(stored: state, summary: summary(5, txs: 1), tipHeight: 100, context: context)
                == .none
        )
    }

    @Test func aMempoolPaymentConfirmedWhileDownIsConfirmedNotDropped() {
        var state = empty
        state.summary = summary(0, unconfirmed: 5, txs: 0, mempool: 1)
        state.txs["u"] = .init(txid: "u", blockHeight: nil, blockHash: nil, deltaSat: 5)
        state.since = 90
        // The history does not list it (paged past), but the lookup finds it in block 107.
        let found = ChainTransaction(
            txid: "u",
            blockHeight: 107,
            blockHash: "b107",
            time: nil,
            feeSat: nil,
            inputs: [],
            outputs: []
        )
        let (next, events) = observe(
            state,
            summary(5, txs: 56),
            (0..<55).map { tx("n\($0)", 107) },
            tip: 107,
            lookups: ["u": found]
        )
        #expect(!events.contains { $0.type == "address.tx.replaced" })
        #expect(events.filter { $0.type == "address.tx.confirmed" }.count == 56)
        #expect(next.txs["u"]?.blockHeight == 107)
    }

    @Test func aReplacedPaymentIsReportedOnceTheLookupSaysItIsGone() {
        var (state, _) = observe(empty, summary(0, txs: 0), [], tip: 100)
        (state, _) = observe(state, summary(0, unconfirmed: 5, txs: 0, mempool: 1), [tx("rbf1", nil, 5)], tip: 100)
        // RBF: the replacement pays 4; the original is gone.
        let (next, events) = observe(
            state,
            summary(0, unconfirmed: 4, txs: 0, mempool: 1),
            [tx("rbf2", nil, 4)],
            tip: 100,
            lookups: ["rbf1": ChainTransaction?.none]
        )
        #expect(
            events.map(\.type) == [
                "address.tx.unconfirmed", "address.tx.replaced", "address.balance.changed", "address.balance.changed",
            ]
        )
        #expect(events.compactMap { $0.data?["state"]?.stringValue } == ["unconfirmed", "replaced"])
        #expect(events[3].data?["deltaSat"] == .number("-5"))
        #expect(next.txs["rbf1"] == nil)
        // Still waiting in the mempool (only the history page missed it): kept.
        let waiting = ChainTransaction(
            txid: "rbf1",
            blockHeight: nil,
            blockHash: nil,
            time: nil,
            feeSat: nil,
            inputs: [],
            outputs: []
        )
        let (kept, none) = observe(
            state,
            summary(0, unconfirmed: 5, txs: 0, mempool: 1),
            [],
            tip: 100,
            lookups: ["rbf1": waiting]
        )
        #expect(none.isEmpty && kept.txs["rbf1"] != nil)
    }

    @Test func aReorgAfterTheLastThresholdRevertsAndReannouncesUnderNewIDs() {
        var (state, _) = observe(empty, summary(0, txs: 0), [], tip: 100)
        var first: [NewEvent]
        (state, first) = observe(state, summary(1_000, txs: 1), [tx("t1", 101)], tip: 101)
        var crossed: [NewEvent]
        (state, crossed) = AddressReducer.tip(state, height: 108, context: context)
        #expect(crossed.count == 2)
        // Past the highest threshold (6) but not past it + reorgSafety (6): still followed.
        #expect(!AddressReducer.isSettled(state.txs["t1"]!, tipHeight: 108, context: context))
        var reverted: [NewEvent]
        (state, reverted) = AddressReducer.revert(state, fork: 100, newChain: [101: "x101"], context: context)
        #expect(reverted.map(\.type) == ["address.tx.reverted", "address.balance.changed"])
        #expect(state.summary?.balanceSat == 0 && state.summary?.unconfirmedBalanceSat == 1_000)
        #expect(state.txs["t1"]?.blockHeight == nil && state.summary?.txCount == nil)
        let moved = AddressTx(txid: "t1", blockHeight: 102, blockHash: "x102", time: nil, deltaSat: 1_000)
        let (_, again) = observe(state, summary(1_000, txs: 1), [moved], tip: 108)
        #expect(
            again.map(\.type) == [
                "address.tx.confirmed", "address.tx.confirmations", "address.tx.confirmations",
                "address.tx.confirmations", "address.balance.changed",
            ]
        )
        let old = Set((first + crossed).map(\.id))
        #expect(again.allSatisfy { !old.contains($0.id) })
    }

    @Test func aReorgKeepsTransactionsWhoseBlockStayed() {
        var (state, _) = observe(empty, summary(0, txs: 0), [], tip: 100)
        (state, _) = observe(state, summary(2_000, txs: 2), [tx("stays", 101), tx("goes", 102)], tip: 102)
        let (next, events) = AddressReducer.revert(
            state,
            fork: 100,
            newChain: [101: "b101", 102: "other"],
            context: context
        )
        #expect(events.map(\.type) == ["address.tx.reverted", "address.balance.changed"])
        #expect(events.allSatisfy { $0.data?["txid"] == .string("goes") })
        #expect(next.txs["stays"]?.blockHeight == 101)
    }

    @Test func aBlockMoveSeenByAPollBeforeTheWalkRevertsTheOldConfirmation() {
        var (state, _) = observe(empty, summary(0, txs: 0), [], tip: 100)
        (state, _) = observe(state, summary(1_000, txs: 1), [tx("t1", 101)], tip: 101)
        let moved = AddressTx(txid: "t1", blockHeight: 101, blockHash: "new101", time: nil, deltaSat: 1_000)
        let (next, events) = observe(state, summary(1_000, txs: 1), [moved], tip: 101)
        #expect(
            events.map(\.type) == [
                "address.tx.reverted", "address.tx.confirmed", "address.tx.confirmations", "address.balance.changed",
                "address.balance.changed",
            ]
        )
        #expect(events.compactMap { $0.data?["state"]?.stringValue } == ["reverted", "confirmed"])
        // The walk then finds the tx on the new chain and leaves it alone.
        let (_, none) = AddressReducer.revert(next, fork: 100, newChain: [101: "new101"], context: context)
        #expect(none.isEmpty)
    }

    @Test func stateOfABusyAddressStaysBounded() {
        var (state, _) = observe(empty, summary(0, txs: 0), [], tip: 900)
        let history = (0..<300).map { tx("t\($0)", 1000 + $0) }
        (state, _) = observe(state, summary(300, txs: 300), history, tip: 2000)
        #expect(state.txs.count == AddressReducer.keptTransactions)
        #expect(state.txs["t299"] != nil && state.txs["t0"] == nil)
    }
}

import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// A provider that leaves a payment out of the address's history and summary (it hides the address from an
/// `agree` watch, or lags) while its lookups find the payment: the balance it gives is short by the payment, and
/// neither the events nor the stored summary may carry that balance.
struct OmittedTransactionTests {
    let context = AddressReducer.Context(
        chain: "btc",
        entry: FollowedAddress(address: "bc1qaddr", thresholds: [1], watch: "w"),
        now: Date(timeIntervalSince1970: 1_800_000_000)
    )

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

    func found(_ height: Int?) -> ChainTransaction {
        ChainTransaction(
            txid: "pay",
            blockHeight: height,
            blockHash: height.map { "b\($0)" },
            time: nil,
            feeSat: nil,
            inputs: [],
            outputs: []
        )
    }

    /// Silent baseline at tip 100, then a 50,000 sat payment seen in the mempool (by an honest provider).
    func waitingPayment() -> AddressState {
        var (state, events) = AddressReducer.observe(
            AddressState(chain: "btc", address: "bc1qaddr"),
            .init(summary: summary(0, txs: 0), history: [], complete: true, tipHeight: 100),
            context: context
        )
        #expect(events.isEmpty)
        let pay = AddressTx(txid: "pay", blockHeight: nil, blockHash: nil, time: nil, deltaSat: 50_000)
        (state, events) = AddressReducer.observe(
            state,
            .init(
                summary: summary(0, unconfirmed: 50_000, txs: 0, mempool: 1),
                history: [pay],
                complete: true,
                tipHeight: 100
            ),
            context: context
        )
        #expect(events.map(\.type) == ["address.tx.unconfirmed", "address.balance.changed"])
        return state
    }

    func observe(_ state: AddressState, _ summary: AddressSummary, lookup: ChainTransaction)
        -> (AddressState, [NewEvent])
    {
        AddressReducer.observe(
            state,
            .init(summary: summary, history: [], complete: true, tipHeight: 101, lookups: ["pay": lookup]),
            context: context
        )
    }

    @Test func aPaymentConfirmedByTheLookupIsInTheBalanceTheSummaryLeftItOutOf() {
        let (state, events) = observe(waitingPayment(), summary(0, txs: 0), lookup: found(101))
        #expect(events.map(\.type) == ["address.tx.confirmed", "address.tx.confirmations", "address.balance.changed"])
        #expect(events[0].data?["balanceSat"] == .number("50000"))
        let step = events.last?.data
        #expect(step?["balanceSat"] == .number("50000"))
        #expect(step?["confirmedDeltaSat"] == .number("50000") && step?["unconfirmedDeltaSat"] == .number("-50000"))
        #expect(state.summary?.balanceSat == 50_000 && state.summary?.txCount == 1)
        #expect(state.summary?.unconfirmedBalanceSat == 0 && state.txs["pay"]?.blockHeight == 101)
        // The provider still hiding it next round: a summary counting fewer transactions, set aside.
        let (again, none) = AddressReducer.observe(
            state,
            .init(summary: summary(0, txs: 0), history: [], complete: true, tipHeight: 101),
            context: context
        )
        #expect(none.isEmpty && again.summary?.balanceSat == 50_000)
    }

    @Test func aPaymentStillWaitingIsInTheUnconfirmedBalance() {
        let stored = waitingPayment()
        let (state, events) = observe(stored, summary(0, txs: 0), lookup: found(nil))
        #expect(events.isEmpty, "\(events.map(\.type))")
        #expect(state.summary == stored.summary && state.txs["pay"]?.blockHeight == nil)
    }

    @Test func aSummaryThatCountsThePaymentIsTakenAsItStands() {
        // The history paged past the payment, the summary holds it: counted once.
        let (state, events) = observe(waitingPayment(), summary(50_000, txs: 1), lookup: found(101))
        #expect(events.first?.data?["balanceSat"] == .number("50000"))
        #expect(state.summary?.balanceSat == 50_000 && state.summary?.txCount == 1)
        let (waiting, _) = observe(
            waitingPayment(),
            summary(0, unconfirmed: 50_000, txs: 0, mempool: 1),
            lookup: found(nil)
        )
        #expect(waiting.summary?.unconfirmedBalanceSat == 50_000 && waiting.summary?.unconfirmedTxCount == 1)
    }
}

import Foundation
import Testing
import WatcherCore

@testable import WatcherRules

/// A pushed payment whose facts the push could not complete (which inputs are unconfirmed: the parent lookup waits
/// for spare budget) is completed by the next poll, which reads a pending transaction's history every round; a
/// request's zero-conf policy then settles on them instead of waiting for a block.
struct PushedFactsTests {
    let replacement = ReplacementReducerTests()

    /// The facts of a final payment of 500 sat over 141 vB, with or without the count of unconfirmed inputs.
    static func facts(unconfirmedInputs: Int?) -> TxFacts {
        TxFacts(
            feeSat: 500,
            vsize: 141,
            sequences: [0xffff_ffff],
            parents: [ReplacementReducerTests.parent],
            outpoints: [TxOutpoint(txid: ReplacementReducerTests.parent, vout: 1)],
            unconfirmedInputs: unconfirmedInputs
        )
    }

    /// An address state after a first poll (nothing), then the push of `pay` without the count.
    func pushed() -> AddressState {
        let context = replacement.context
        let empty = AddressState(chain: "btc", address: "bc1qaddr")
        var (state, _) = AddressReducer.observe(
            empty,
            .init(
                summary: replacement.summary(unconfirmed: 0, mempool: 0),
                history: [],
                complete: true,
                tipHeight: 100
            ),
            context: context
        )
        (state, _) = AddressReducer.pushed(
            state,
            txid: "pay",
            deltaSat: 40_000,
            facts: Self.facts(unconfirmedInputs: nil),
            context: context
        )
        return state
    }

    @Test func theNextPollReadsAPendingPushedPaymentsHistoryAndTheHistoryCompletesItsFacts() {
        let state = pushed()
        #expect(state.txs["pay"]?.facts?.unconfirmedInputs == nil)
        // The summary stands still (the push counted the payment in it), yet a pending transaction has its history
        // read every round: the count comes with it.
        let summary = replacement.summary(unconfirmed: 40_000, mempool: 1)
        let request = AddressReducer.historyRequest(
            stored: state,
            summary: state.summary ?? summary,
            tipHeight: 100,
            context: replacement.context
        )
        #expect(request != .none)
        #expect(state.summary?.txCount == 0, "the confirmed count the CLI shows is left as it was")
        var read = replacement.tx("pay", 40_000, spends: nil)
        read.facts = Self.facts(unconfirmedInputs: 0)
        let (next, events) = AddressReducer.observe(
            state,
            .init(summary: summary, history: [read], complete: true, tipHeight: 100),
            context: replacement.context
        )
        #expect(next.txs["pay"]?.facts?.unconfirmedInputs == 0)
        #expect(next.txs["pay"]?.facts?.feeSat == 500, "known facts are kept")
        #expect(!events.contains { $0.type == "address.tx.unconfirmed" }, "announced once, by the push")
        // A later read that cannot tell does not forget what is known.
        var blind = read
        blind.facts = Self.facts(unconfirmedInputs: nil)
        let again = AddressReducer.observe(
            next,
            .init(summary: summary, history: [blind], complete: true, tipHeight: 100),
            context: replacement.context
        ).0
        #expect(again.txs["pay"]?.facts?.unconfirmedInputs == 0)
    }

    @Test func aRequestPaidByThePushSettlesUnconfirmedOnceThePollCompletesItsFacts() {
        let terms = RequestTerms(zeroConf: .init(maxSat: 50_000))
        let start = RequestReducerTests.start
        var pushedTx = pushed().txs["pay"]!
        let request = RequestReducerTests.request(terms: terms)
        let (paid, _) = RequestReducer.reduce(
            request,
            facts: .init(tipHeight: 100, txs: [pushedTx]),
            now: start,
            events: RequestReducerTests.builder
        )
        #expect(paid.status == .paid, "the count is unknown: the policy waits")
        pushedTx.facts = pushedTx.facts?.filling(from: Self.facts(unconfirmedInputs: 0))
        let (settled, events) = RequestReducer.reduce(
            paid,
            facts: .init(tipHeight: 100, txs: [pushedTx]),
            now: start,
            events: RequestReducerTests.builder
        )
        #expect((settled.status, settled.policy) == (.settled, "zeroConf"))
        #expect(settled.payments.first?.facts?.unconfirmedInputs == 0)
        #expect(events.map(\.type) == ["request.settled"])
    }
}

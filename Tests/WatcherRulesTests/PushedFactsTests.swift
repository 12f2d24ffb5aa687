import Foundation
import Testing
import WatcherCore

@testable import WatcherRules

/// A pushed payment whose facts the push could not complete (which inputs are unconfirmed: the parent lookup waits
/// for spare budget) is read with the history at the next poll, whose facts complete it; a request's zero-conf
/// policy then settles on them instead of waiting for a block.
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

    @Test func aPushWithoutTheCountMakesTheNextPollReadTheHistoryAndTheHistoryCompletesIt() {
        let state = pushed()
        #expect(state.txs["pay"]?.facts?.unconfirmedInputs == nil)
        #expect(state.summary?.txCount == nil, "the next poll's summary differs: the history is read")
        var read = replacement.tx("pay", 40_000, spends: nil)
        read.facts = Self.facts(unconfirmedInputs: 0)
        let (next, events) = AddressReducer.observe(
            state,
            .init(
                summary: replacement.summary(unconfirmed: 40_000, mempool: 1),
                history: [read],
                complete: true,
                tipHeight: 100
            ),
            context: replacement.context
        )
        #expect(next.txs["pay"]?.facts?.unconfirmedInputs == 0)
        #expect(next.txs["pay"]?.facts?.feeSat == 500, "known facts are kept")
        #expect(next.summary?.txCount == 0, "complete again: later polls read summaries only")
        #expect(!events.contains { $0.type == "address.tx.unconfirmed" }, "announced once, by the push")
        // A push that could tell leaves the summary as it was.
        var told = AddressReducer.observe(
            AddressState(chain: "btc", address: "bc1qaddr"),
            .init(
                summary: replacement.summary(unconfirmed: 0, mempool: 0),
                history: [],
                complete: true,
                tipHeight: 100
            ),
            context: replacement.context
        ).0
        told =
            AddressReducer.pushed(
                told,
                txid: "pay",
                deltaSat: 40_000,
                facts: Self.facts(unconfirmedInputs: 0),
                context: replacement.context
            ).0
        #expect(told.summary?.txCount == 0)
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

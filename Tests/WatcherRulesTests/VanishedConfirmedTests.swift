import Foundation
import Testing
import WatcherCore

@testable import WatcherRules

/// A confirmed transaction that a complete history no longer lists (its block replaced by a reorg the chain walk
/// could not place below it): reverted, and replaced when the provider does not know it, but only on proof that
/// its block is gone, never on the word of a provider that may lag.
struct VanishedConfirmedTests {
    let context = AddressReducer.Context(
        chain: "btc",
        entry: FollowedAddress(address: "bc1qaddr", thresholds: [1], watch: "w", reorgSafety: 6),
        now: Date(timeIntervalSince1970: 1_800_000_000)
    )

    func summary(_ balance: Int64, txs: Int) -> AddressSummary {
        AddressSummary(
            address: "bc1qaddr",
            balanceSat: balance,
            totalReceivedSat: nil,
            totalSentSat: nil,
            txCount: txs,
            unconfirmedBalanceSat: 0,
            unconfirmedTxCount: 0
        )
    }

    /// The state after a silent baseline at tip 100 holding `old` in block 99 (hash `b99`).
    func baseline() -> AddressState {
        let old = AddressTx(txid: "old", blockHeight: 99, blockHash: "b99", time: nil, deltaSat: 5_000)
        let (state, events) = AddressReducer.observe(
            AddressState(chain: "btc", address: "bc1qaddr"),
            .init(summary: summary(5_000, txs: 1), history: [old], complete: true, tipHeight: 100),
            context: context
        )
        #expect(events.isEmpty && state.txs["old"]?.blockHash == "b99")
        return state
    }

    let other = AddressTx(txid: "new", blockHeight: 100, blockHash: "c100", time: nil, deltaSat: 7_000)

    func observe(_ state: AddressState, lookups: [String: ChainTransaction?], replaced: Set<String>)
        -> (AddressState, [NewEvent])
    {
        // Another payment in the replacing block: a summary with fewer transactions would read as a lagging one.
        let observation = AddressReducer.Observation(
            summary: summary(7_000, txs: 1),
            history: [other],
            complete: true,
            tipHeight: 100,
            lookups: lookups,
            replacedBlocks: replaced
        )
        return AddressReducer.observe(state, observation, context: context)
    }

    @Test func aBaselineTransactionWhoseBlockWasReplacedIsRevertedThenReplaced() throws {
        let state = baseline()
        #expect(
            AddressReducer.confirmedCandidates(state, history: [other], tipHeight: 100, context: context) == ["old"]
        )
        let (next, all) = observe(state, lookups: ["old": ChainTransaction?.none], replaced: ["b99"])
        let events = all.filter { $0.fact[2] == "old" }
        #expect(
            events.map(\.type) == [
                "address.tx.reverted", "address.tx.replaced", "address.balance.changed", "address.balance.changed",
            ]
        )
        #expect(events[0].fact == ["btc", "bc1qaddr", "old", "b99"] && next.txs["old"] == nil)
        let steps = events.filter { $0.type == "address.balance.changed" }.map(\.fact)
        #expect(steps == [["btc", "bc1qaddr", "old", "reverted", "b99"], ["btc", "bc1qaddr", "old", "replaced"]])
    }

    @Test func aProviderThatDoesNotKnowTheTransactionMayLagItIsKept() {
        let state = baseline()
        let (next, events) = observe(state, lookups: ["old": ChainTransaction?.none], replaced: [])
        #expect(!events.contains { $0.fact[2] == "old" } && next.txs["old"]?.blockHeight == 99)
    }

    @Test func aTransactionStillInItsBlockIsKeptAndOneMovedIsConfirmedThere() {
        let state = baseline()
        let same = ChainTransaction(
            txid: "old",
            blockHeight: 99,
            blockHash: "b99",
            time: nil,
            feeSat: nil,
            inputs: [],
            outputs: []
        )
        let kept = observe(state, lookups: ["old": same], replaced: [])
        #expect(!kept.1.contains { $0.fact[2] == "old" } && kept.0.txs["old"]?.blockHash == "b99")
        var moved = same
        (moved.blockHeight, moved.blockHash) = (100, "c100")
        let (next, events) = observe(state, lookups: ["old": moved], replaced: [])
        let old = events.filter { $0.fact[2] == "old" && $0.type.hasPrefix("address.tx.") }
        #expect(old.map(\.type) == ["address.tx.reverted", "address.tx.confirmed", "address.tx.confirmations"])
        #expect(old.map { $0.fact[3] } == ["b99", "c100", "c100"])
        #expect(next.txs["old"]?.blockHash == "c100")
    }

    @Test func aBlockTheChainMemoryKnowsReplacedSendsTheTransactionBackToTheMempool() {
        var context = self.context
        context.blockHashes = [99: "c99"]
        let (next, events) = AddressReducer.observe(
            baseline(),
            .init(summary: summary(7_000, txs: 1), history: [other], complete: true, tipHeight: 100),
            context: context
        )
        #expect(
            events.filter { $0.fact[2] == "old" }.map(\.type) == ["address.tx.reverted", "address.balance.changed"]
        )
        #expect(next.txs["old"]?.blockHeight == nil && next.summary?.txCount == nil)
    }
}

import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// `address.tx.replaced` names its replacer and its reason from the outputs the vanished transaction spent: a rival
/// in the same history, else the providers' answers about those outputs.
struct ReplacementReducerTests {
    let entry = FollowedAddress(address: "bc1qaddr", label: nil, thresholds: [1, 3], watch: "w")
    var context: AddressReducer.Context {
        AddressReducer.Context(chain: "btc", entry: entry, now: Date(timeIntervalSince1970: 1_800_000_000))
    }
    static let parent = String(repeating: "a", count: 64)
    static let other = String(repeating: "b", count: 64)
    let spent = [TxOutpoint(txid: parent, vout: 1), TxOutpoint(txid: other, vout: 0)]

    func summary(unconfirmed: Int64, mempool: Int) -> AddressSummary {
        AddressSummary(
            address: "bc1qaddr",
            balanceSat: 0,
            totalReceivedSat: 0,
            totalSentSat: 0,
            txCount: 0,
            unconfirmedBalanceSat: unconfirmed,
            unconfirmedTxCount: mempool
        )
    }

    func tx(_ id: String, _ delta: Int64, spends: [TxOutpoint]?) -> AddressTx {
        AddressTx(
            txid: id,
            blockHeight: nil,
            time: nil,
            deltaSat: delta,
            facts: spends.map { TxFacts(parents: $0.map(\.txid), outpoints: $0) }
        )
    }

    /// A state following `old` (5,000 sat in the mempool, spending ``spent``).
    func following(spends: [TxOutpoint]? = nil) -> AddressState {
        let empty = AddressState(chain: "btc", address: "bc1qaddr")
        var (state, _) = AddressReducer.observe(
            empty,
            .init(summary: summary(unconfirmed: 0, mempool: 0), history: [], complete: true, tipHeight: 100),
            context: context
        )
        (state, _) = AddressReducer.observe(
            state,
            .init(
                summary: summary(unconfirmed: 5_000, mempool: 1),
                history: [tx("old", 5_000, spends: spends ?? spent)],
                complete: true,
                tipHeight: 100
            ),
            context: context
        )
        return state
    }

    /// The `address.tx.replaced` of `old` after a poll whose history is `history` and whose providers said `spends`.
    func replaced(
        _ state: AddressState,
        history: [AddressTx],
        spends: [TxOutpoint: OutputSpend] = [:]
    ) throws -> JSONValue {
        let unconfirmed = history.reduce(0) { $0 + $1.deltaSat }
        let (next, events) = AddressReducer.observe(
            state,
            .init(
                summary: summary(unconfirmed: unconfirmed, mempool: history.count),
                history: history,
                complete: true,
                tipHeight: 100,
                lookups: ["old": ChainTransaction?.none],
                spends: spends
            ),
            context: context
        )
        #expect(next.txs["old"] == nil)
        let event = try #require(events.first { $0.type == "address.tx.replaced" })
        return try #require(event.data)
    }

    @Test func theOutputsSpentAreKeptUntilSettledAndRecordsWithoutThemStillDecode() throws {
        var state = following()
        #expect(state.txs["old"]?.spends == spent)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let stored = try encoder.encode(state)
        var legacy = try #require(String(data: stored, encoding: .utf8))
        legacy = legacy.replacingOccurrences(of: #","spends":\[[^\]]*\]"#, with: "", options: .regularExpression)
        #expect(!legacy.contains("spends"))
        let decoded = try JSONDecoder().decode(AddressState.self, from: Data(legacy.utf8))
        #expect(decoded.txs["old"]?.spends == nil)
        // Confirmed at 101, settled at 101 + 3 + reorgSafety - 1: the outputs are forgotten.
        state.txs["old"]?.blockHeight = 101
        state.txs["old"]?.blockHash = "b101"
        let (settled, _) = AddressReducer.tip(state, height: 101 + 3 + entry.reorgSafety, context: context)
        #expect(settled.txs["old"]?.spends == nil)
        let (young, _) = AddressReducer.tip(state, height: 102, context: context)
        #expect(young.txs["old"]?.spends == spent)
    }

    @Test func aRivalInTheSameHistoryIsTheReplacementAndIsFollowed() throws {
        let rival = tx("new", 4_000, spends: [TxOutpoint(txid: Self.other, vout: 0)])
        let state = following()
        #expect(
            AddressReducer.spendQuestions(
                state,
                history: [rival],
                lookups: ["old": nil],
                tipHeight: 100,
                context: context
            ).isEmpty
        )
        let data = try replaced(state, history: [rival])
        #expect(data["reason"] == .string("replaced"))
        #expect(data["replacedBy"] == .string("new"))
        #expect(data["replacementFollowed"] == .bool(true))
        #expect(data["replacementDeltaSat"] == .number("4000"))
    }

    @Test func aNamedSpenderOutsideTheHistoryIsAReplacementNotFollowed() throws {
        let state = following()
        let questions = AddressReducer.spendQuestions(
            state,
            history: [],
            lookups: ["old": nil],
            tipHeight: 100,
            context: context
        )
        #expect(questions == [Self.parent: [1], Self.other: [0]])
        // The transaction was found (still waiting, or confirmed): nothing to ask.
        let waiting = ChainTransaction(
            txid: "old",
            blockHeight: nil,
            blockHash: nil,
            time: nil,
            feeSat: nil,
            inputs: [],
            outputs: []
        )
        #expect(
            AddressReducer.spendQuestions(
                state,
                history: [],
                lookups: ["old": waiting],
                tipHeight: 100,
                context: context
            ).isEmpty
        )
        let data = try replaced(state, history: [], spends: [spent[0]: .unspent, spent[1]: .spent(by: "new")])
        #expect(data["reason"] == .string("replaced"))
        #expect(data["replacedBy"] == .string("new"))
        #expect(data["replacementFollowed"] == .bool(false))
        #expect(data["replacementDeltaSat"] == .null)
    }

    @Test func anUnnamedSpenderIsStillAReplacement() throws {
        let data = try replaced(following(), history: [], spends: [spent[0]: .spent(by: nil)])
        #expect(data["reason"] == .string("replaced"))
        #expect(data["replacedBy"] == .null)
        #expect(data["replacementFollowed"] == .null)
    }

    @Test func everyInputThereAndUnspentIsAnEviction() throws {
        let data = try replaced(following(), history: [], spends: [spent[0]: .unspent, spent[1]: .unspent])
        #expect(data["reason"] == .string("evicted"))
        #expect(data["replacedBy"] == .null)
        // One output not answered: the provider cannot tell.
        let partial = try replaced(following(), history: [], spends: [spent[0]: .unspent])
        #expect(partial["reason"] == .string("dropped from the mempool"))
    }

    @Test func aMissingParentMeansTheInputsWentAway() throws {
        let data = try replaced(following(), history: [], spends: [spent[0]: .unspent, spent[1]: .parentMissing])
        #expect(data["reason"] == .string("inputs reorged away"))
        #expect(data["replacedBy"] == .null)
    }

    @Test func withoutTheOutputsSpentNoProviderCanTell() throws {
        let state = following(spends: [])
        #expect(
            AddressReducer.spendQuestions(state, history: [], lookups: ["old": nil], tipHeight: 100, context: context)
                .isEmpty
        )
        let data = try replaced(state, history: [], spends: [spent[0]: .spent(by: "new")])
        #expect(data["reason"] == .string("dropped from the mempool"))
        #expect(data["replacedBy"] == .null)
        #expect(data["replacementFollowed"] == .null)
        #expect(data["replacementDeltaSat"] == .null)
    }

    @Test func theVanishedTransactionStillNamedAsSpenderSaysNothing() throws {
        let data = try replaced(following(), history: [], spends: [spent[0]: .spent(by: "old"), spent[1]: .unspent])
        #expect(data["reason"] == .string("dropped from the mempool"))
    }

    @Test func aPushedPaymentLearnsItsInputsFromTheNextHistory() {
        let empty = AddressState(chain: "btc", address: "bc1qaddr")
        var (state, _) = AddressReducer.observe(
            empty,
            .init(summary: summary(unconfirmed: 0, mempool: 0), history: [], complete: true, tipHeight: 100),
            context: context
        )
        (state, _) = AddressReducer.pushed(state, txid: "old", deltaSat: 5_000, context: context)
        #expect(state.txs["old"]?.spends == nil)
        let (next, events) = AddressReducer.observe(
            state,
            .init(
                summary: summary(unconfirmed: 5_000, mempool: 1),
                history: [tx("old", 5_000, spends: spent)],
                complete: true,
                tipHeight: 100
            ),
            context: context
        )
        #expect(next.txs["old"]?.spends == spent)
        #expect(!events.contains { $0.type == "address.tx.unconfirmed" })
    }

    @Test func onlyTransactionsLeavingTheStateAreAskedAbout() {
        var state = following()
        state.txs["old"]?.blockHeight = 100
        state.txs["old"]?.blockHash = "b100"
        let mempool = tx("new", 1_000, spends: [TxOutpoint(txid: Self.other, vout: 5)])
        // Confirmed and not in this history (a lagging page, or older than what it reached): not asked about,
        // unless the lookup says the provider no longer knows it.
        let lagging = AddressReducer.spendQuestions(
            state,
            history: [mempool],
            lookups: [:],
            tipHeight: 101,
            context: context
        )
        #expect(lagging.isEmpty)
        let gone = AddressReducer.spendQuestions(
            state,
            history: [mempool],
            lookups: ["old": nil],
            tipHeight: 101,
            context: context
        )
        #expect(gone == [Self.parent: [1], Self.other: [0]])
    }
}

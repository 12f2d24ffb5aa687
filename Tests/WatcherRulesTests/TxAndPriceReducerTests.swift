import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// The `tx` and `price` rules, and the event basics every reducer relies on.
struct TxAndPriceReducerTests {
    let context = TxReducer.Context(
        chain: "btc",
        watch: "pay",
        txid: "ab",
        thresholds: [1, 3, 6],
        reorgSafety: 6,
        now: Date(timeIntervalSince1970: 1_800_000_000)
    )

    func chainTx(_ height: Int?, _ hash: String?) -> ChainTransaction {
        ChainTransaction(
            txid: "ab",
            blockHeight: height,
            blockHash: hash,
            time: nil,
            feeSat: 300,
            inputs: [],
            outputs: []
        )
    }

    @Test func thresholdsThenSettled() {
        var (state, events) = TxReducer.observe(.init(), chainTx(nil, nil), tipHeight: 100, context: context)
        #expect(events.isEmpty)
        (state, events) = TxReducer.observe(state, chainTx(101, "b101"), tipHeight: 103, context: context)
        #expect(events.map(\.type) == ["tx.confirmations", "tx.confirmations"])
        (state, events) = TxReducer.tip(state, height: 106, context: context)
        #expect(events.count == 1 && state.announced == [1, 3, 6])
        #expect(!TxReducer.isSettled(state, tipHeight: 111, context: context))
        #expect(TxReducer.isSettled(state, tipHeight: 112, context: context))
    }

    @Test func aReorgAfterTheHighestThresholdIsReported() {
        var (state, first) = TxReducer.observe(.init(), chainTx(101, "b101"), tipHeight: 107, context: context)
        #expect(first.count == 3)
        var reverted: [NewEvent]
        (state, reverted) = TxReducer.revert(state, fork: 100, newChain: [:], context: context)
        #expect(reverted.map(\.type) == ["tx.reverted"])
        #expect(reverted[0].data?["blockHash"] == .string("b101"))
        #expect(state.blockHeight == nil && state.announced.isEmpty)
        let (_, again) = TxReducer.observe(state, chainTx(102, "c102"), tipHeight: 107, context: context)
        #expect(again.count == 3)
        #expect(Set(again.map(\.id)).isDisjoint(with: first.map(\.id)))
    }

    @Test func aMoveSeenByThePollRevertsTheOldBlock() {
        let (state, _) = TxReducer.observe(.init(), chainTx(101, "b101"), tipHeight: 101, context: context)
        let (_, events) = TxReducer.observe(state, chainTx(101, "c101"), tipHeight: 101, context: context)
        #expect(events.map(\.type) == ["tx.reverted", "tx.confirmations"])
        // An unconfirmed answer from a lagging provider changes nothing.
        let (same, none) = TxReducer.observe(state, chainTx(nil, nil), tipHeight: 101, context: context)
        #expect(none.isEmpty && same == state)
    }

    @Test func priceCrossingsOncePerCrossingAndChangeWindow() {
        let watch = PriceRule(id: "px", above: [100_000], below: [50_000], changePercent: 5, window: .seconds(3600))
        var state = PriceWatchState()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var types: [[String]] = []
        for (price, minute) in [
            (Decimal(99_000), 0.0), (100_500, 1), (101_000, 2), (99_500, 3), (100_001, 4), (94_000, 5),
        ] {
            let time = start.addingTimeInterval(minute * 60)
            let quote = PriceQuote(currency: "USD", price: price, time: time, provider: "cb")
            let events: [NewEvent]
            (state, events) = PriceReducer.reduce(state, quote: quote, watch: watch, now: time)
            types.append(events.map(\.type))
        }
        #expect(types == [[], ["price.threshold.crossed"], [], [], ["price.threshold.crossed"], ["price.change"]])
        #expect(state.crossings["100000above"] == 2)
    }

    @Test func satoshiFormatting() {
        #expect(Satoshi.btc(150_000) == "0.00150000")
        #expect(Satoshi.btc(-5) == "-0.00000005")
        #expect(Satoshi.btc(2_100_000_000_000_000) == "21000000.00000000")
    }

    @Test func idsDependOnlyOnTheFact() {
        let builder = EventBuilder(now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let a = builder.make(type: "block.new", fact: ["btc", "1", "h"], source: "x", subject: "h", data: [])
        let later = EventBuilder(now: { Date(timeIntervalSince1970: 1_900_000_000) })
        let b = later.make(type: "block.new", fact: ["btc", "1", "h"], source: "other", subject: "h", data: [])
        #expect(a.id == b.id)
        #expect(a.id.hasPrefix("evt_") && a.id.count == 36)
        let envelope = try? JSONValue.parse(a.body)
        #expect(envelope?["time"] == .string("2027-01-15T08:00:00.000Z"))
    }
}

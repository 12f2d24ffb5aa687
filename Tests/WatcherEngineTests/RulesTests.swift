import Foundation
import Testing
import WatcherCore
import WatcherStorage

@testable import WatcherEngine

/// The pure event rules: ids derived from facts, address reconciliation, confirmations, price crossings.
struct RulesTests {
    let builder = EventBuilder(now: { Date(timeIntervalSince1970: 1_800_000_000) })
    let entry = AddressBook.Entry(address: "bc1qaddr", label: "Savings", thresholds: [1, 3, 6], watch: "savings")

    var subject: AddressEvents.Subject {
        .init(
            chain: "btc",
            entry: entry,
            builder: builder,
            prices: [PriceQuote(currency: "USD", price: Decimal(string: "65000.50")!, time: Date(), provider: "cb")]
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

    @Test func satoshiFormatting() {
        #expect(Satoshi.btc(150_000) == "0.00150000")
        #expect(Satoshi.btc(-5) == "-0.00000005")
        #expect(Satoshi.btc(2_100_000_000_000_000) == "21000000.00000000")
    }

    @Test func idsDependOnlyOnTheFact() {
        let a = builder.make(type: "block.new", fact: ["btc", "1", "h"], source: "x", subject: "h", data: [])
        let later = EventBuilder(now: { Date(timeIntervalSince1970: 1_900_000_000) })
        let b = later.make(type: "block.new", fact: ["btc", "1", "h"], source: "other", subject: "h", data: [])
        #expect(a.id == b.id)
        #expect(a.id.hasPrefix("evt_") && a.id.count == 36)
        #expect(
            a.id != builder.make(type: "block.new", fact: ["btc", "1", "h2"], source: "x", subject: "h", data: []).id
        )
        let envelope = try? JSONValue.parse(a.body)
        #expect(envelope?["specversion"] == .string("1.0"))
        #expect(envelope?["datacontenttype"] == .string("application/json"))
        #expect(envelope?["time"] == .string("2027-01-15T08:00:00.000Z"))
    }

    @Test func paymentLifecycle() throws {
        var state = AddressState(chain: "btc", address: "bc1qaddr", summary: summary(0, txs: 0))
        // Seen in the mempool.
        var events = AddressEvents.apply(
            &state,
            summary: summary(0, unconfirmed: 150_000, txs: 0, mempool: 1),
            history: [AddressTx(txid: "t1", blockHeight: nil, time: nil, deltaSat: 150_000)],
            complete: true,
            tipHeight: 100,
            subject: subject
        )
        #expect(events.map(\.type) == ["address.tx.unconfirmed", "address.balance.changed"])
        let unconfirmed = try JSONValue.parse(events[0].body)
        #expect(unconfirmed["data"]?["deltaSat"] == .number("150000"))
        #expect(unconfirmed["data"]?["deltaBtc"] == .string("0.00150000"))
        #expect(unconfirmed["data"]?["fiat"]?["USD"] == .string("97.5"))
        // Mined at 101.
        events = AddressEvents.apply(
            &state,
            summary: summary(150_000, txs: 1),
            history: [AddressTx(txid: "t1", blockHeight: 101, blockHash: "b101", time: nil, deltaSat: 150_000)],
            complete: true,
            tipHeight: 101,
            subject: subject
        )
        #expect(events.map(\.type) == ["address.tx.confirmed", "address.tx.confirmations", "address.balance.changed"])
        // Two more blocks: the 3-confirmation threshold, once.
        #expect(AddressEvents.confirmations(&state, tipHeight: 103, subject: subject).count == 1)
        #expect(AddressEvents.confirmations(&state, tipHeight: 103, subject: subject).isEmpty)
        #expect(AddressEvents.confirmations(&state, tipHeight: 110, subject: subject).count == 1)
        #expect(state.txs["t1"]?.announced == [1, 3, 6])
    }

    @Test func mempoolTxThatVanishesIsReplaced() {
        var state = AddressState(chain: "btc", address: "bc1qaddr", summary: summary(0, txs: 0))
        _ = AddressEvents.apply(
            &state,
            summary: summary(0, unconfirmed: 5, txs: 0, mempool: 1),
            history: [AddressTx(txid: "t1", blockHeight: nil, time: nil, deltaSat: 5)],
            complete: true,
            tipHeight: 100,
            subject: subject
        )
        let events = AddressEvents.apply(
            &state,
            summary: summary(0, txs: 0),
            history: [],
            complete: true,
            tipHeight: 100,
            subject: subject
        )
        #expect(events.map(\.type) == ["address.tx.replaced", "address.balance.changed"])
        #expect(state.txs.isEmpty)
    }

    @Test func theSameObservationTwiceGivesTheSameIDs() {
        var first = AddressState(chain: "btc", address: "bc1qaddr", summary: summary(0, txs: 0))
        var second = first
        let history = [AddressTx(txid: "t1", blockHeight: 101, blockHash: "b101", time: nil, deltaSat: 7)]
        let a = AddressEvents.apply(
            &first,
            summary: summary(7, txs: 1),
            history: history,
            complete: true,
            tipHeight: 101,
            subject: subject
        )
        let b = AddressEvents.apply(
            &second,
            summary: summary(7, txs: 1),
            history: history,
            complete: true,
            tipHeight: 101,
            subject: subject
        )
        #expect(a.map(\.id) == b.map(\.id))
    }

    @Test func stateOfABusyAddressStaysBounded() {
        var state = AddressState(chain: "btc", address: "bc1qaddr", summary: summary(0, txs: 0))
        let history = (0..<300).map {
            AddressTx(txid: "t\($0)", blockHeight: 1000 + $0, blockHash: "b\($0)", time: nil, deltaSat: 1)
        }
        _ = AddressEvents.apply(
            &state,
            summary: summary(300, txs: 300),
            history: history,
            complete: true,
            tipHeight: 2000,
            subject: subject
        )
        #expect(state.txs.count == AddressEvents.keptTransactions)
        // The newest are kept: they are the ones a history request can return again.
        #expect(state.txs["t299"] != nil && state.txs["t0"] == nil)
    }

    @Test func priceCrossingsOncePerCrossingAndChangeWindow() {
        var watch = WatchConfig(id: "px", kind: .price, chain: "", providers: ["cb"], every: .seconds(60))
        watch.currencies = ["USD"]
        watch.above = [100_000]
        watch.below = [50_000]
        watch.changePercent = 5
        watch.window = .seconds(3600)
        var state = PriceWatchState()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func quote(_ price: Decimal, _ minutes: Double) -> PriceQuote {
            PriceQuote(currency: "USD", price: price, time: start.addingTimeInterval(minutes * 60), provider: "cb")
        }
        var types: [[String]] = []
        for (price, minute) in [
            (Decimal(99_000), 0.0), (100_500, 1), (101_000, 2), (99_500, 3), (100_001, 4), (94_000, 5),
        ] {
            types.append(
                PriceRules.evaluate(&state, quote: quote(price, minute), watch: watch, builder: builder).map(\.type)
            )
        }
        #expect(types[0].isEmpty)
        #expect(types[1] == ["price.threshold.crossed"])
        #expect(types[2].isEmpty)
        #expect(types[3].isEmpty)
        #expect(types[4] == ["price.threshold.crossed"])
        #expect(types[5] == ["price.change"])
        #expect(state.crossings["100000above"] == 2)
    }
}

import Foundation
import Testing
import WatcherCore

@testable import WatcherRules

/// The mempool job's memory and its `address.tx.replaced`, on values alone.
struct MempoolRecallTests {
    @Test func theKnownTxidsArePrunedToTheListAndAWholeReadIsDueOncePerInterval() {
        var memory = MempoolRecall()
        #expect(memory.fullDue(now: .seconds(0), every: .seconds(2)))
        memory.add(["a", "b", "c"])
        memory.replace(current: ["b", "c", "d"], at: .seconds(0))
        #expect(memory.known == ["b", "c"], "a left the mempool; d was not read yet")
        #expect(!memory.fullDue(now: .seconds(1), every: .seconds(2)))
        #expect(memory.fullDue(now: .seconds(2), every: .seconds(2)))
    }

    @Test func aMissingTransactionIsGoneOnlyOnceTheStoredTipMovedPastWhereItWasMissed() {
        var memory = MempoolRecall()
        #expect(memory.gone(["x"], tipHeight: 100).isEmpty, "maybe in a block the scan has not stored yet")
        #expect(memory.gone(["x"], tipHeight: 100).isEmpty, "no block scanned since")
        #expect(memory.gone(["x", "y"], tipHeight: 101) == ["x"], "y was missed only now")
        #expect(memory.gone([], tipHeight: 102).isEmpty, "y was confirmed (or is back): forgotten")
        #expect(memory.gone(["y"], tipHeight: 102).isEmpty, "missed again: counted from now")
    }

    @Test func aDroppedTransactionLeavesTheStateWithItsReplacedStep() throws {
        let entry = FollowedAddress(address: "bc1qaddr", thresholds: [1], watch: "shop")
        let context = AddressReducer.Context(
            chain: "btc",
            entry: entry,
            now: Date(timeIntervalSince1970: 1_800_000_000)
        )
        let empty = AddressState(chain: "btc", address: "bc1qaddr")
        let (seen, _) = AddressReducer.pushed(empty, txid: "pay", deltaSat: 7_000, context: context)
        let (gone, events) = AddressReducer.dropped(seen, txid: "pay", context: context)
        #expect(gone.txs["pay"] == nil)
        let types = events.map(\.type)
        #expect(types == ["address.tx.replaced", "address.balance.changed"])
        // Confirmed, or unknown: nothing.
        let (confirmed, _) = AddressReducer.scanned(
            seen,
            [.init(txid: "pay", deltaSat: 7_000)],
            block: BlockRef(height: 101, hash: "b101"),
            tipHeight: 101,
            context: context
        )
        #expect(AddressReducer.dropped(confirmed, txid: "pay", context: context).1.isEmpty)
        #expect(AddressReducer.dropped(empty, txid: "pay", context: context).1.isEmpty)
    }
}

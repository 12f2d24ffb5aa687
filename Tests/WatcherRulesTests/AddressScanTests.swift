import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// Block scanning, on values alone.
struct AddressScanTests {
    let entry = FollowedAddress(address: "bc1qaddr", thresholds: [1, 3], watch: "shop")
    var context: AddressReducer.Context {
        AddressReducer.Context(chain: "btc", entry: entry, now: Date(timeIntervalSince1970: 1_800_000_000))
    }

    /// Scans block 101 holding one payment of 7,000 sat to the address, with the tip at `tipHeight`.
    func scanPayment(_ state: AddressState, tipHeight: Int = 101) -> (AddressState, [NewEvent]) {
        AddressReducer.scanned(
            state,
            [.init(txid: "pay", deltaSat: 7_000)],
            block: BlockRef(height: 101, hash: "b101"),
            tipHeight: tipHeight,
            context: context
        )
    }

    @Test func aBlockMatchesEveryFollowedAddressItTouches() {
        let txs = [
            ChainTransaction(
                txid: "pay",
                blockHeight: 101,
                blockHash: "b101",
                time: nil,
                feeSat: 200,
                inputs: [TxEndpoint(address: "bc1qspender", valueSat: 10_200)],
                outputs: [
                    TxEndpoint(address: "bc1qaddr", valueSat: 7_000),
                    TxEndpoint(address: "bc1qspender", valueSat: 3_000),
                ]
            ),
            ChainTransaction(
                txid: "coinbase",
                blockHeight: 101,
                blockHash: "b101",
                time: nil,
                feeSat: nil,
                inputs: [TxEndpoint(address: nil, valueSat: 0)],
                outputs: [TxEndpoint(address: "bc1qminer", valueSat: 5_000_000_000)]
            ),
        ]
        let matches = AddressReducer.match(txs, followed: ["bc1qaddr", "bc1qspender", "bc1qother"])
        #expect(matches["bc1qaddr"] == [.init(txid: "pay", deltaSat: 7_000)])
        #expect(matches["bc1qspender"] == [.init(txid: "pay", deltaSat: -7_200)])
        #expect(matches["bc1qother"] == nil && matches.count == 2)
    }

    @Test func aScannedPaymentIsAnnouncedWithoutAnyBaseline() {
        let (state, events) = scanPayment(AddressState(chain: "btc", address: "bc1qaddr"))
        #expect(
            events.map(\.type) == [
                "address.tx.confirmed", "address.tx.confirmations", "address.balance.changed",
                "address.balance.changed",
            ]
        )
        // No summary yet: the steps are announced, with no balance after them.
        #expect(events[3].data?["balanceSat"] == .null)
        #expect(state.since == 101 && state.summary == nil)
        // The same block scanned again (a retried round) announces nothing.
        let (_, again) = scanPayment(state)
        #expect(again.isEmpty)
    }

    @Test func aKnownBalanceMovesByTheExactDelta() {
        var state = AddressState(chain: "btc", address: "bc1qaddr")
        state.summary = AddressSummary(
            address: "bc1qaddr",
            balanceSat: 1_000,
            totalReceivedSat: 1_000,
            totalSentSat: 0,
            txCount: 1,
            unconfirmedBalanceSat: 7_000,
            unconfirmedTxCount: 1
        )
        state.txs["pay"] = .init(txid: "pay", blockHeight: nil, blockHash: nil, deltaSat: 7_000)
        let (next, events) = scanPayment(state, tipHeight: 102)
        #expect(next.summary?.balanceSat == 8_000 && next.summary?.unconfirmedBalanceSat == 0)
        #expect(next.summary?.txCount == 2 && next.summary?.unconfirmedTxCount == 0)
        #expect(events.map(\.type) == ["address.tx.confirmed", "address.tx.confirmations", "address.balance.changed"])
    }
}

import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// `AddressReducer.started`: a node's starting balance is a silent baseline that later confirmed steps count from.
struct AddressStartTests {
    static let address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func context() -> AddressReducer.Context {
        AddressReducer.Context(
            chain: "btc",
            entry: FollowedAddress(address: address, watch: "shop"),
            now: now
        )
    }

    @Test func theStartingBalanceIsABaselineWithTheRestUnknown() {
        var state = AddressState(chain: "btc", address: Self.address)
        state.txs["aa"] = .init(txid: "aa", blockHeight: nil, blockHash: nil, deltaSat: 5_000)
        let started = AddressReducer.started(
            state,
            confirmedSat: 120_000,
            at: BlockRef(height: 100, hash: String(repeating: "1", count: 64)),
            context: Self.context()
        )
        #expect(started.summary?.balanceSat == 120_000)
        #expect(started.summary?.unconfirmedBalanceSat == 5_000 && started.summary?.unconfirmedTxCount == 1)
        #expect(started.summary?.txCount == nil && started.summary?.totalReceivedSat == nil)
        #expect(started.since == 101)
        // Known already: unchanged.
        let again = AddressReducer.started(
            started,
            confirmedSat: 1,
            at: BlockRef(height: 101, hash: String(repeating: "2", count: 64)),
            context: Self.context()
        )
        #expect(again == started)
    }

    @Test func aLaterScannedPaymentCountsFromTheBaseline() throws {
        let base = AddressReducer.started(
            AddressState(chain: "btc", address: Self.address),
            confirmedSat: 120_000,
            at: BlockRef(height: 100, hash: String(repeating: "1", count: 64)),
            context: Self.context()
        )
        let block = BlockRef(height: 101, hash: String(repeating: "2", count: 64))
        let (next, events) = AddressReducer.scanned(
            base,
            [.init(txid: String(repeating: "c", count: 64), deltaSat: 30_000)],
            block: block,
            tipHeight: 101,
            context: Self.context()
        )
        #expect(next.summary?.balanceSat == 150_000)
        let steps = try events.filter { $0.type == "address.balance.changed" }.compactMap {
            try JSONValue.parse($0.body)["data"]
        }
        let confirmed = try #require(steps.first { $0["state"] == .string("confirmed") }, "\(steps)")
        #expect(confirmed["balanceSat"] == .number("150000"), "\(confirmed)")
    }
}

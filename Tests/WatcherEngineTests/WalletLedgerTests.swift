import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherEngine

/// The wallet's balances and `wallet.balance.changed`, on values alone.
struct WalletLedgerTests {
    static let ref = WalletAddressRef(wallet: "shop", branch: .receive, index: 4)
    static let context = WalletLedger.Context(
        chain: "btc",
        wallet: "shop",
        label: "Shop",
        now: Date(timeIntervalSince1970: 1_800_000_000)
    )

    static func address(confirmed: Int64?, unconfirmed: Int64 = 0, txs: [AddressState.TrackedTx] = []) -> AddressState {
        var state = AddressState(chain: "btc", address: "bc1qfour")
        state.wallet = ref
        if let confirmed {
            state.summary = AddressSummary(
                address: "bc1qfour",
                balanceSat: confirmed,
                totalReceivedSat: nil,
                totalSentSat: nil,
                txCount: txs.count,
                unconfirmedBalanceSat: unconfirmed,
                unconfirmedTxCount: 0
            )
        }
        for tx in txs { state.txs[tx.txid] = tx }
        return state
    }

    /// The address reducer's event for a transaction, as the ledger reads it (type and identifying fields).
    static func event(_ type: String, _ txid: String, block: String? = nil) -> NewEvent {
        EventBuilder().make(
            type: type,
            fact: ["btc", "bc1qfour", txid] + (block.map { [$0] } ?? []),
            source: "shop",
            subject: "bc1qfour",
            data: []
        )
    }

    @Test func aPaymentMovesTheBalanceAndIsAnnouncedWithAnIdFromTheChain() throws {
        var change = WalletLedger.Change()
        let tx = AddressState.TrackedTx(txid: "pay", blockHeight: nil, blockHash: nil, deltaSat: 7_000)
        WalletLedger.record(
            &change,
            before: Self.address(confirmed: 1_000),
            after: Self.address(confirmed: 1_000, unconfirmed: 7_000, txs: [tx]),
            events: [Self.event("address.tx.unconfirmed", "pay")]
        )
        var state = WalletState(chain: "btc", wallet: "shop", descriptor: "d")
        state.balanceSat = 1_000
        let (next, events) = WalletLedger.apply(state, change, context: Self.context)
        #expect(next.balanceSat == 1_000 && next.unconfirmedSat == 7_000)
        let event = try #require(events.first)
        #expect(events.count == 1 && event.type == "wallet.balance.changed")
        #expect(
            event.id
                == EventBuilder.id(type: "wallet.balance.changed", fact: ["btc", "shop", "pay|unconfirmed|bc1qfour"])
        )
        let data = try JSONValue.parse(event.body)["data"]
        #expect(data?["deltaSat"] == .number("7000") && data?["unconfirmedDeltaSat"] == .number("7000"))
        #expect(data?["old"]?["balanceSat"] == .number("1000") && data?["new"]?["unconfirmedSat"] == .number("7000"))
        #expect(data?["txids"] == .array([.string("pay")]) && data?["label"] == .string("Shop"))
        // Confirmation moves it from one side to the other: the total does not change, the fact (and id) does.
        var confirm = WalletLedger.Change()
        let mined = AddressState.TrackedTx(txid: "pay", blockHeight: 9, blockHash: "b9", deltaSat: 7_000)
        WalletLedger.record(
            &confirm,
            before: Self.address(confirmed: 1_000, unconfirmed: 7_000, txs: [tx]),
            after: Self.address(confirmed: 8_000, txs: [mined]),
            events: [Self.event("address.tx.confirmed", "pay", block: "b9")]
        )
        let (settled, confirmed) = WalletLedger.apply(next, confirm, context: Self.context)
        #expect(settled.balanceSat == 8_000 && settled.unconfirmedSat == 0)
        let second = try JSONValue.parse(try #require(confirmed.first).body)["data"]
        #expect(second?["deltaSat"] == .number("0") && second?["confirmedDeltaSat"] == .number("7000"))
        #expect(confirmed.first?.id != event.id)
    }

    @Test func aBaselineMovesTheBalanceSilently() {
        var change = WalletLedger.Change()
        let old = AddressState.TrackedTx(txid: "old", blockHeight: 3, blockHash: "b3", deltaSat: 5_000)
        WalletLedger.record(&change, before: nil, after: Self.address(confirmed: 5_000, txs: [old]), events: [])
        let (next, events) = WalletLedger.apply(
            WalletState(chain: "btc", wallet: "shop", descriptor: "d"),
            change,
            context: Self.context
        )
        #expect(next.balanceSat == 5_000 && events.isEmpty)
    }

    /// A payment scanned in the block that grew the window to its address, before the address's history check:
    /// announced then, with no balance; its balance counts (and is announced) when the check gives one.
    @Test func aPaymentWhoseBalanceComesLaterCountsWhenItComes() throws {
        let mined = AddressState.TrackedTx(txid: "pay", blockHeight: 9, blockHash: "b9", deltaSat: 42_000)
        var scanned = WalletLedger.Change()
        WalletLedger.record(
            &scanned,
            before: nil,
            after: Self.address(confirmed: nil, txs: [mined]),
            events: [Self.event("address.tx.confirmed", "pay", block: "b9")]
        )
        #expect(scanned == WalletLedger.Change())
        var checked = WalletLedger.Change()
        WalletLedger.record(
            &checked,
            before: Self.address(confirmed: nil, txs: [mined]),
            after: Self.address(confirmed: 42_000, txs: [mined]),
            events: []
        )
        let (next, events) = WalletLedger.apply(
            WalletState(chain: "btc", wallet: "shop", descriptor: "d"),
            checked,
            context: Self.context
        )
        #expect(next.balanceSat == 42_000)
        #expect(
            events.map(\.id) == [
                EventBuilder.id(type: "wallet.balance.changed", fact: ["btc", "shop", "pay|confirmed|b9|bc1qfour"])
            ]
        )
    }
}

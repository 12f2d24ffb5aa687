import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

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

    static func apply(_ change: WalletLedger.Change, to state: WalletState, addresses: [AddressState] = [])
        -> (WalletState, [NewEvent])
    {
        WalletLedger.apply(state, change, addresses: addresses, context: context)
    }

    @Test func aPaymentIsOneEventPerStepWithAnIdFromTheChain() throws {
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
        let (next, events) = Self.apply(change, to: state)
        #expect(next.balanceSat == 1_000 && next.unconfirmedSat == 7_000)
        let event = try #require(events.first)
        #expect(events.count == 1 && event.type == "wallet.balance.changed")
        #expect(
            event.id == EventBuilder.id(type: "wallet.balance.changed", fact: ["btc", "shop", "pay", "unconfirmed"])
        )
        let data = try JSONValue.parse(event.body)["data"]
        #expect(data?["deltaSat"] == .number("7000") && data?["unconfirmedDeltaSat"] == .number("7000"))
        #expect(data?["state"] == .string("unconfirmed") && data?["balanceSat"] == .null)
        #expect(data?["txid"] == .string("pay") && data?["label"] == .string("Shop"))
        // Confirmation moves it from one side to the other: the total does not change, the fact (and id) does.
        var confirm = WalletLedger.Change()
        let mined = AddressState.TrackedTx(txid: "pay", blockHeight: 9, blockHash: "b9", deltaSat: 7_000)
        let after = Self.address(confirmed: 8_000, txs: [mined])
        WalletLedger.record(
            &confirm,
            before: Self.address(confirmed: 1_000, unconfirmed: 7_000, txs: [tx]),
            after: after,
            events: [Self.event("address.tx.confirmed", "pay", block: "b9")]
        )
        let (settled, confirmed) = Self.apply(confirm, to: next, addresses: [after])
        #expect(settled.balanceSat == 8_000 && settled.unconfirmedSat == 0)
        let second = try JSONValue.parse(try #require(confirmed.first).body)["data"]
        #expect(second?["deltaSat"] == .number("0") && second?["confirmedDeltaSat"] == .number("7000"))
        #expect(second?["unconfirmedDeltaSat"] == .number("-7000") && second?["balanceSat"] == .number("8000"))
        #expect(
            confirmed.map(\.id) == [
                EventBuilder.id(type: "wallet.balance.changed", fact: ["btc", "shop", "pay", "confirmed", "b9"])
            ]
        )
    }

    @Test func aBaselineMovesTheBalanceSilently() {
        var change = WalletLedger.Change()
        let old = AddressState.TrackedTx(txid: "old", blockHeight: 3, blockHash: "b3", deltaSat: 5_000)
        WalletLedger.record(&change, before: nil, after: Self.address(confirmed: 5_000, txs: [old]), events: [])
        let (next, events) = Self.apply(change, to: WalletState(chain: "btc", wallet: "shop", descriptor: "d"))
        #expect(next.balanceSat == 5_000 && events.isEmpty)
    }

    /// A payment scanned in the block that grew the window to its address, before the address's history check:
    /// the step is a fact of the chain, announced then; the balance the check brings later is silent.
    @Test func aPaymentWhoseBalanceComesLaterIsAnnouncedWhenItIsSeen() throws {
        let mined = AddressState.TrackedTx(txid: "pay", blockHeight: 9, blockHash: "b9", deltaSat: 42_000)
        var scanned = WalletLedger.Change()
        WalletLedger.record(
            &scanned,
            before: nil,
            after: Self.address(confirmed: nil, txs: [mined]),
            events: [Self.event("address.tx.confirmed", "pay", block: "b9")]
        )
        let empty = WalletState(chain: "btc", wallet: "shop", descriptor: "d")
        let (_, events) = Self.apply(scanned, to: empty, addresses: [Self.address(confirmed: nil, txs: [mined])])
        let data = try JSONValue.parse(try #require(events.last).body)["data"]
        #expect(
            events.map { try! JSONValue.parse($0.body)["data"]?["state"] } == [
                .string("unconfirmed"), .string("confirmed"),
            ]
        )
        #expect(data?["confirmedDeltaSat"] == .number("42000") && data?["balanceSat"] == .null)
        var checked = WalletLedger.Change()
        WalletLedger.record(
            &checked,
            before: Self.address(confirmed: nil, txs: [mined]),
            after: Self.address(confirmed: 42_000, txs: [mined]),
            events: []
        )
        let (next, later) = Self.apply(checked, to: empty)
        #expect(next.balanceSat == 42_000 && later.isEmpty)
    }

    /// A spend from one wallet address with change to another is one step per state, its amount the net effect
    /// on the wallet; a transfer that moves nothing is not announced.
    @Test func aTransactionAtSeveralAddressesIsOneStepWithItsNetEffect() throws {
        var change = WalletLedger.Change()
        for (address, delta) in [("bc1qfour", Int64(-10_000)), ("bc1qfive", 6_000)] {
            var after = AddressState(chain: "btc", address: address)
            after.txs["spend"] = AddressState.TrackedTx(
                txid: "spend",
                blockHeight: nil,
                blockHash: nil,
                deltaSat: delta
            )
            let event = EventBuilder().make(
                type: "address.tx.unconfirmed",
                fact: ["btc", address, "spend"],
                source: "shop",
                subject: address,
                data: []
            )
            WalletLedger.record(
                &change,
                before: AddressState(chain: "btc", address: address),
                after: after,
                events: [event]
            )
        }
        let (_, events) = Self.apply(change, to: WalletState(chain: "btc", wallet: "shop", descriptor: "d"))
        #expect(events.count == 1)
        let data = try JSONValue.parse(try #require(events.first).body)["data"]
        #expect(data?["amountSat"] == .number("-4000") && data?["unconfirmedDeltaSat"] == .number("-4000"))
    }
}

import Testing
import WatcherCore
import WatcherSinks
import WatcherTestSupport

/// The pretty stdout line of a balance change: a wallet's (and an address's recorded before balance steps)
/// confirmed and unconfirmed balances, each with its own change, from `data.old` and `data.new`; an address's
/// balance step.
struct PrettyEventLineTests {
    /// The envelope of a real event (docs/events.md, recorded against the simnet) with `old` and `new` replaced.
    static func balanceEvent(label: String?, old: (Int64, Int64), new: (Int64, Int64), delta: Int64) -> SinkEvent {
        func side(_ balance: (Int64, Int64)) -> String {
            """
            {"balanceSat": \(balance.0), "balanceBtc": "-", "unconfirmedSat": \(balance.1), "unconfirmedBtc": "-"}
            """
        }
        let body = """
            {
              "specversion": "1.0",
              "id": "evt_3149aaa0f260779f444a77c1e311628c",
              "source": "watcher/savings",
              "type": "address.balance.changed",
              "subject": "bc1qj4hwktexxttm6ql3v6er8cl09pff7rcnl7q5w8",
              "time": "2026-11-21T23:55:20.117Z",
              "datacontenttype": "application/json",
              "data": {
                "chain": "btc",
                "address": "bc1qj4hwktexxttm6ql3v6er8cl09pff7rcnl7q5w8",
                "label": \(label.map { "\"\($0)\"" } ?? "null"),
                "old": \(side(old)),
                "new": \(side(new)),
                "deltaSat": \(delta),
                "deltaBtc": "-",
                "balanceSat": \(new.0),
                "balanceBtc": "-",
                "fiat": {"EUR": "56026.88", "GBP": "47622.85", "USD": "60695.78"}
              }
            }
            """
        return SinkEvent(
            seq: 1,
            id: "evt_3149aaa0f260779f444a77c1e311628c",
            type: "address.balance.changed",
            body: Array(body.utf8)
        )
    }

    static let head =
        "2026-11-21T23:55:20.117Z  address.balance.changed     bc1qj4hwktexxttm6ql3v6er8cl09pff7rcnl7q5w8  "

    @Test func thePaymentInTheDocsArrivingInTheMempool() {
        // docs/events.md: the total rose by 250000 sat, all of it unconfirmed.
        let event = Self.balanceEvent(
            label: "Savings",
            old: (93_378_128, 23_666_060),
            new: (93_378_128, 23_916_060),
            delta: 250_000
        )
        #expect(
            PrettyEventLine.render(event, color: false)
                == Self.head + "(Savings) confirmed 0.93378128 BTC (unchanged) unconfirmed 0.23916060 BTC (+0.00250000)"
        )
    }

    @Test func aPaymentThatConfirmsMovesBetweenTheBalances() {
        // The total does not change (deltaSat 0): the line shows where the money moved.
        let event = Self.balanceEvent(label: "shop", old: (0, 150_000), new: (150_000, 0), delta: 0)
        #expect(
            PrettyEventLine.render(event, color: false)
                == Self.head + "(shop) confirmed 0.00150000 BTC (+0.00150000) unconfirmed 0.00000000 BTC (-0.00150000)"
        )
    }

    @Test func aSpendWithoutLabelAndLargeAmounts() {
        let event = Self.balanceEvent(
            label: nil,
            old: (2_100_000_000_000_000, 0),
            new: (1_999_999_999_999_995, -5),
            delta: -100_000_000_000_010
        )
        #expect(
            PrettyEventLine.render(event, color: false)
                == Self.head
                + "confirmed 19999999.99999995 BTC (-1000000.00000005) unconfirmed -0.00000005 BTC (-0.00000005)"
        )
    }

    @Test func anEventWithoutOldAndNewFallsBackToItsFields() {
        let body = #"{"time": "t", "subject": "s", "data": {"deltaBtc": "0.1", "balanceBtc": "1.0"}}"#
        let event = SinkEvent(seq: 1, id: "e", type: "address.balance.changed", body: Array(body.utf8))
        #expect(PrettyEventLine.render(event, color: false).hasSuffix("s  deltaBtc=0.1 balanceBtc=1.0"))
    }

    @Test func aWalletBalanceChangeShowsBothBalances() {
        // docs/events.md: the spend out of the wallet "shop" with its change, in the mempool.
        let body =
            #"{"specversion":"1.0","id":"evt_982415ffe1277cb821e55a4369dea5a1","source":"watcher/shop","type":"wallet.balance.changed","subject":"shop","time":"2026-11-26T14:46:46.805Z","datacontenttype":"application/json","data":{"chain":"btc","wallet":"shop","label":"Shop","old":{"balanceSat":250000,"balanceBtc":"0.00250000","unconfirmedSat":0,"unconfirmedBtc":"0.00000000"},"new":{"balanceSat":250000,"balanceBtc":"0.00250000","unconfirmedSat":-100450,"unconfirmedBtc":"-0.00100450"},"deltaSat":-100450,"deltaBtc":"-0.00100450","confirmedDeltaSat":0,"unconfirmedDeltaSat":-100450,"balanceSat":250000,"balanceBtc":"0.00250000","txids":["638bb7edd2d47d07d603dcb7e7c23aab7a1db8db5f54f11b741c0f2601ef4c20"],"fiat":{"EUR":"150","GBP":"127.5","USD":"162.5"}}}"#
        let event = SinkEvent(
            seq: 9,
            id: "evt_982415ffe1277cb821e55a4369dea5a1",
            type: "wallet.balance.changed",
            body: Array(body.utf8)
        )
        #expect(
            PrettyEventLine.render(event, color: false)
                == "2026-11-26T14:46:46.805Z  wallet.balance.changed      shop  (Shop) confirmed 0.00250000 BTC "
                + "(unchanged) unconfirmed -0.00100450 BTC (-0.00100450)"
        )
    }

    @Test func aWalletBalanceStepShowsTheStateTheTxidAndEachChange() {
        // docs/events.md: the spend with its change, confirmed (WalletTests on the simnet).
        let body =
            #"{"specversion":"1.0","id":"evt_43aefdb73ca3bc8f129d0d74f5bb1522","source":"watcher/shop","type":"wallet.balance.changed","subject":"shop","time":"2026-11-26T17:35:28.563Z","datacontenttype":"application/json","data":{"chain":"btc","wallet":"shop","label":"Shop","txid":"6ac51172b97dfa4cd83bac4386a95a76f95de979c20087ded3bb3f2d702f85a7","state":"confirmed","blockHeight":800010,"blockHash":"692067a18cab5cefb623e0806a322399eef47d719f7e5f6420a0f80f30d45d01","amountSat":-60450,"amountBtc":"-0.00060450","deltaSat":0,"deltaBtc":"0.00000000","confirmedDeltaSat":-60450,"unconfirmedDeltaSat":60450,"balanceSat":189550,"balanceBtc":"0.00189550","fiat":{}}}"#
        let event = SinkEvent(
            seq: 9,
            id: "evt_43aefdb73ca3bc8f129d0d74f5bb1522",
            type: "wallet.balance.changed",
            body: Array(body.utf8)
        )
        #expect(
            PrettyEventLine.render(event, color: false)
                == "2026-11-26T17:35:28.563Z  wallet.balance.changed      shop  (Shop) confirmed 6ac51172b97dfa4c… "
                + "confirmed -0.00060450 BTC → 0.00189550 BTC unconfirmed +0.00060450 BTC"
        )
    }

    @Test func anAddressBalanceStepShowsTheStateTheTxidAndEachChange() {
        // docs/events.md: a payment of 40003 sat confirmed, recorded by ActiveActiveBalanceTests.
        let body =
            #"{"specversion":"1.0","id":"evt_901a4839179ded69f190d84a49fda11b","source":"watcher/shop","type":"address.balance.changed","subject":"bc1qxlpl3jf7lrrs0sjj0f8dtf9nljjzu3mj3ahw2v","time":"2026-11-26T16:56:38.861Z","datacontenttype":"application/json","data":{"chain":"btc","address":"bc1qxlpl3jf7lrrs0sjj0f8dtf9nljjzu3mj3ahw2v","label":null,"txid":"f6b9baa4072b5d4e1747746c396442345ba9894b0efa98592cec4face70c1b92","state":"confirmed","blockHeight":800009,"blockHash":"00000000000000000003129e62617b3fee0254589956c10498568bcb43f3b7d7","amountSat":40003,"amountBtc":"0.00040003","deltaSat":0,"deltaBtc":"0.00000000","confirmedDeltaSat":40003,"unconfirmedDeltaSat":-40003,"balanceSat":80003,"balanceBtc":"0.00080003","fiat":{}}}"#
        let event = SinkEvent(
            seq: 8,
            id: "evt_901a4839179ded69f190d84a49fda11b",
            type: "address.balance.changed",
            body: Array(body.utf8)
        )
        #expect(
            PrettyEventLine.render(event, color: false)
                == "2026-11-26T16:56:38.861Z  address.balance.changed     bc1qxlpl3jf7lrrs0sjj0f8dtf9nljjzu3mj3ahw2v  "
                + "confirmed f6b9baa4072b5d4e… confirmed +0.00040003 BTC → 0.00080003 BTC unconfirmed -0.00040003 BTC"
        )
    }

    @Test func aPaymentRequestShowsItsStatusAmountsAndRule() {
        let body = """
            {"specversion": "1.0", "id": "evt_1", "type": "request.settled", "subject": "req_7f3a",
             "time": "2026-11-29T10:00:00.000Z",
             "data": {"id": "req_7f3a", "status": "settled", "late": true, "overpaid": false, "marked": false,
                      "dueSat": 40827, "paidSat": 40600, "orderId": "1042", "policy": "late.accept, confirmations>=1"}}
            """
        let event = SinkEvent(seq: 1, id: "evt_1", type: "request.settled", body: Array(body.utf8))
        #expect(
            PrettyEventLine.render(event, color: false)
                == "2026-11-29T10:00:00.000Z  request.settled             req_7f3a  status=settled+late due=40827 "
                + "paid=40600 order=1042 policy=late.accept, confirmations>=1"
        )
    }
}

import WatcherCore
import WatcherJSON

/// The pretty details of an `address.balance.changed` event, one transaction's step: its state, the txid, and
/// the change of each balance, with the confirmed balance after it where the event has one. A payment that
/// confirms reads `(shop) confirmed 1a2b3c4d5e6f7a8b… confirmed +0.00150000 BTC → 0.00150000 BTC unconfirmed
/// -0.00150000 BTC`, not a zero total change.
struct BalanceStepLine {
    var label: String?
    var state: String
    var txid: String
    var confirmedDelta: Int64
    var unconfirmedDelta: Int64
    var balance: Int64?

    /// Reads `data`; `nil` without a `state`, a `txid`, or integer `confirmedDeltaSat` and `unconfirmedDeltaSat`.
    init?(data: JSONValue) {
        func sats(_ key: String) -> Int64? {
            guard case .number(let text)? = data[key] else { return nil }
            return Int64(text)
        }
        guard let state = data["state"]?.stringValue, let txid = data["txid"]?.stringValue,
            let confirmedDelta = sats("confirmedDeltaSat"), let unconfirmedDelta = sats("unconfirmedDeltaSat")
        else { return nil }
        self.label = data["label"]?.stringValue
        self.state = state
        self.txid = txid
        self.confirmedDelta = confirmedDelta
        self.unconfirmedDelta = unconfirmedDelta
        self.balance = sats("balanceSat")
    }

    /// `(label) <state> <txid>… confirmed <change> BTC[ → <balance> BTC] unconfirmed <change> BTC`.
    var text: String {
        var parts: [String] = []
        if let label, !label.isEmpty { parts.append("(\(label))") }
        parts.append(state)
        parts.append(txid.count > 20 ? String(txid.prefix(16)) + "…" : txid)
        var confirmed = "confirmed \(Self.change(confirmedDelta))"
        if let balance { confirmed += " → \(BalanceChangeLine.btc(balance)) BTC" }
        parts.append(confirmed)
        parts.append("unconfirmed \(Self.change(unconfirmedDelta))")
        return parts.joined(separator: " ")
    }

    /// `+0.00150000 BTC`, `-0.00000005 BTC`, or `unchanged`.
    static func change(_ delta: Int64) -> String {
        delta == 0 ? "unchanged" : (delta > 0 ? "+" : "") + BalanceChangeLine.btc(delta) + " BTC"
    }
}

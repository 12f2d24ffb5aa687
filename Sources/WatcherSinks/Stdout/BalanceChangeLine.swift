import WatcherCore
import WatcherJSON

/// The pretty details of an `address.balance.changed` event: the confirmed and the unconfirmed balance, each with
/// its own change, from the event's `data.old` and `data.new`. A payment that confirms reads
/// `confirmed 0.00150000 BTC (+0.00150000) unconfirmed 0.00000000 BTC (-0.00150000)`, not a zero total change.
struct BalanceChangeLine {
    var label: String?
    var oldConfirmed: Int64
    var newConfirmed: Int64
    var oldUnconfirmed: Int64
    var newUnconfirmed: Int64

    /// Reads `data`; `nil` when `old` or `new` lacks an integer `balanceSat` or `unconfirmedSat`.
    init?(data: JSONValue) {
        func sats(_ side: String, _ key: String) -> Int64? {
            guard case .number(let text)? = data[side]?[key] else { return nil }
            return Int64(text)
        }
        guard let oldConfirmed = sats("old", "balanceSat"), let newConfirmed = sats("new", "balanceSat"),
            let oldUnconfirmed = sats("old", "unconfirmedSat"), let newUnconfirmed = sats("new", "unconfirmedSat")
        else { return nil }
        self.label = data["label"]?.stringValue
        self.oldConfirmed = oldConfirmed
        self.newConfirmed = newConfirmed
        self.oldUnconfirmed = oldUnconfirmed
        self.newUnconfirmed = newUnconfirmed
    }

    /// `(label) confirmed <BTC> BTC (<change>) unconfirmed <BTC> BTC (<change>)`.
    var text: String {
        var parts: [String] = []
        if let label, !label.isEmpty { parts.append("(\(label))") }
        parts.append("confirmed \(Self.btc(newConfirmed)) BTC (\(Self.change(from: oldConfirmed, to: newConfirmed)))")
        parts.append(
            "unconfirmed \(Self.btc(newUnconfirmed)) BTC (\(Self.change(from: oldUnconfirmed, to: newUnconfirmed)))"
        )
        return parts.joined(separator: " ")
    }

    /// `+0.00150000`, `-0.00000005`, or `unchanged`.
    static func change(from old: Int64, to new: Int64) -> String {
        let (delta, overflow) = new.subtractingReportingOverflow(old)
        guard !overflow else { return "?" }
        return delta == 0 ? "unchanged" : (delta > 0 ? "+" : "") + btc(delta)
    }

    /// Satoshi as BTC with 8 decimals, by integer arithmetic: `150000` → `0.00150000`, `-5` → `-0.00000005`.
    static func btc(_ sats: Int64) -> String {
        let magnitude = sats.magnitude
        let fraction = String(magnitude % 100_000_000)
        let padded = String(repeating: "0", count: 8 - fraction.count) + fraction
        return (sats < 0 ? "-" : "") + "\(magnitude / 100_000_000).\(padded)"
    }
}

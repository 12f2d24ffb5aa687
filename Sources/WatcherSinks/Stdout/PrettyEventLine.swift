import Foundation
import WatcherCore
import WatcherJSON

/// The human form of an event: time, type, subject and the data that matters. A wallet's balance change shows the
/// confirmed and unconfirmed balances with their own changes (see ``BalanceChangeLine``), an address's the step of
/// one transaction (see ``BalanceStepLine``).
public enum PrettyEventLine {
    /// Renders one line.
    public static func render(_ event: SinkEvent, color: Bool) -> String {
        let envelope = try? JSONValue.parse(event.body)
        let time = envelope?["time"]?.stringValue ?? ""
        let subject = envelope?["subject"]?.stringValue ?? ""
        var details: [String] = []
        if event.type == "address.balance.changed" || event.type == "wallet.balance.changed",
            let data = envelope?["data"],
            let balance = BalanceChangeLine(data: data)
        {
            details.append(balance.text)
        } else if event.type == "address.balance.changed" || event.type == "wallet.balance.changed",
            let data = envelope?["data"], let step = BalanceStepLine(data: data)
        {
            details.append(step.text)
        } else if event.type.hasPrefix("request."), let data = envelope?["data"] {
            details.append(requestText(data))
        } else if let members = envelope?["data"]?.members {
            let wanted = [
                "height", "hash", "label", "txid", "deltaBtc", "balanceBtc", "confirmations", "currency", "price",
                "level", "direction", "changePercent", "provider", "reason", "orphaned",
            ]
            for key in wanted {
                guard let value = members.first(where: { $0.key == key })?.value else { continue }
                let text: String
                switch value {
                case .string(let s): text = s.count > 20 && key != "label" ? String(s.prefix(16)) + "…" : s
                case .array(let items): text = "\(items.count)"
                default: text = value.serialized()
                }
                details.append("\(key)=\(text)")
            }
        }
        var type = event.type.padding(toLength: max(event.type.count, 26), withPad: " ", startingAt: 0)
        if color {
            let code =
                event.type.hasPrefix("block.")
                ? "36"
                : event.type.hasPrefix("address.")
                    ? "32"
                    : event.type.hasPrefix("price.") ? "33" : "35"
            type = "\u{1B}[\(code)m\(type)\u{1B}[0m"
        }
        return [time, type, subject, details.joined(separator: " ")].filter { !$0.isEmpty }.joined(separator: "  ")
    }

    /// A payment request's step: its status and flags, the amounts, the order, and the payment or rule involved.
    static func requestText(_ data: JSONValue) -> String {
        var status = "status=" + (data["status"]?.stringValue ?? "?")
        for flag in ["late", "overpaid", "marked"] where data[flag] == .bool(true) { status += "+\(flag)" }
        var parts = [
            status, "due=\(data["dueSat"]?.serialized() ?? "?")", "paid=\(data["paidSat"]?.serialized() ?? "?")",
        ]
        if let order = data["orderId"]?.stringValue { parts.append("order=\(order)") }
        if let txid = data["payment"]?["txid"]?.stringValue { parts.append("txid=\(txid.prefix(16))…") }
        if let by = data["replacedBy"]?.stringValue { parts.append("replacedBy=\(by.prefix(16))…") }
        if let policy = data["policy"]?.stringValue { parts.append("policy=\(policy)") }
        return parts.joined(separator: " ")
    }
}

import Foundation
import WatcherCore

/// A request's `bitcoin:` URI (BIP321): `bitcoin:<address>?amount=<due in BTC>&label=<label>&message=<order id>`,
/// with the amount exactly `dueSat` and no `req-` key. Its QR form has the address in upper case.
public enum RequestURI {
    /// The URI of `request`.
    public static func make(_ request: PaymentRequest) -> String {
        make(address: request.address, dueSat: request.dueSat, label: request.label, message: request.orderId)
    }

    /// `bitcoin:<address>?amount=…[&label=…][&message=…]`, parts percent-encoded.
    public static func make(address: String, dueSat: Int64, label: String?, message: String?) -> String {
        var query = ["amount=\(amount(dueSat))"]
        if let label, !label.isEmpty { query.append("label=\(encode(label))") }
        if let message, !message.isEmpty { query.append("message=\(encode(message))") }
        return "bitcoin:\(address)?" + query.joined(separator: "&")
    }

    /// The amount in BTC, a period as the separator and no trailing zeros (`40827` → `0.00040827`,
    /// `100000000` → `1`).
    public static func amount(_ sats: Int64) -> String {
        var text = Satoshi.btc(sats)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func encode(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

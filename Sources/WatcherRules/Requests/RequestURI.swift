import Foundation
import WatcherCore

/// A request's `bitcoin:` URI (BIP321): `bitcoin:<address>?amount=<due in BTC>&label=<label>&message=<order id>`,
/// with the amount exactly `dueSat` and no `req-` key. Its uppercase form (``uppercase(_:)``) encodes in a smaller
/// QR code.
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

    /// The URI with its scheme, and a bech32 address, in upper case (`BITCOIN:BC1Q…?amount=…`): BIP321 takes the
    /// scheme and keys case-insensitively and bech32 is case-insensitive, and a QR code encodes upper-case letters,
    /// digits and `:` in its alphanumeric mode, 5.5 bits a character instead of 8. A Base58 address is case-sensitive
    /// and stays as it is; the query (percent-encoded label and message) too.
    public static func uppercase(_ uri: String) -> String {
        guard uri.hasPrefix("bitcoin:") else { return uri }
        let rest = uri.dropFirst("bitcoin:".count)
        let address = rest.prefix { $0 != "?" }
        let query = rest.dropFirst(address.count)
        let bech32 = ["bc1", "tb1", "bcrt1"].contains { address.lowercased().hasPrefix($0) }
        return "BITCOIN:" + (bech32 ? address.uppercased() : String(address)) + query
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

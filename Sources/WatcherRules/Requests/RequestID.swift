import WatcherCore

extension PaymentRequest {
    /// The id of the request on `address` of `wallet` on `chain`: `req_` and 24 hex digits of SHA-256. One request
    /// per address, so the id is the address's (a wallet whose descriptor changed, its indices counted from 0 again,
    /// has other addresses, so other ids).
    public static func id(chain: String, wallet: String, address: String) -> String {
        "req_" + String(EventBuilder.id(type: "request", fact: [chain, wallet, address]).dropFirst(4).prefix(24))
    }
}

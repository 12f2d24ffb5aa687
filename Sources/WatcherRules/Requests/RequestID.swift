import WatcherCore

extension PaymentRequest {
    /// The id of the request at receive index `index` of `wallet` on `chain`: `req_` and 24 hex digits of SHA-256.
    /// One request per address, so the id is the address's.
    public static func id(chain: String, wallet: String, index: Int) -> String {
        "req_" + String(EventBuilder.id(type: "request", fact: [chain, wallet, "\(index)"]).dropFirst(4).prefix(24))
    }
}

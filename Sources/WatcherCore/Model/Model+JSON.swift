import Foundation
import WatcherJSON

/// The JSON field names scripts rely on, shared by `watcher probe`, the explorer commands' `--json` and the status
/// server's `/api/*`: one definition, so they cannot drift apart.
extension JSONValue {
    /// An ISO 8601 UTC time, whole seconds.
    public static func isoTime(_ date: Date) -> JSONValue {
        .string(ISO8601Time.string(date))
    }

    /// A JSON number, or `null`.
    public static func integer(_ value: (some BinaryInteger)?) -> JSONValue { value.map { .number("\($0)") } ?? .null }
}

extension BlockHeader {
    /// `{"hash", "height", "time", "merkleRoot", "nonce", "txCount", "previousHash"}`.
    public var json: JSONValue {
        .object([
            .init("hash", .string(hash)),
            .init("height", .integer(height)),
            .init("time", .isoTime(time)),
            .init("merkleRoot", .string(merkleRoot)),
            .init("nonce", .integer(nonce)),
            .init("txCount", .integer(txCount)),
            .init("previousHash", previousHash.map(JSONValue.string) ?? .null),
        ])
    }
}

extension AddressSummary {
    /// `{"address", "balanceSat", "totalReceivedSat", "totalSentSat", "txCount", "unconfirmedBalanceSat",
    /// "unconfirmedTxCount"}`; values a provider could not supply are `null`.
    public var jsonMembers: [JSONValue.Member] {
        [
            .init("address", .string(address)),
            .init("balanceSat", .integer(balanceSat)),
            .init("totalReceivedSat", .integer(totalReceivedSat)),
            .init("totalSentSat", .integer(totalSentSat)),
            .init("txCount", .integer(txCount)),
            .init("unconfirmedBalanceSat", .integer(unconfirmedBalanceSat)),
            .init("unconfirmedTxCount", .integer(unconfirmedTxCount)),
        ]
    }
}

extension PriceQuote {
    /// `{"currency", "price", "time", "provider"}`; the price is an exact decimal string.
    public var json: JSONValue {
        .object([
            .init("currency", .string(currency)),
            .init("price", .string("\(price)")),
            .init("time", .isoTime(time)),
            .init("provider", .string(provider)),
        ])
    }
}

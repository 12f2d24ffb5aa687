import Foundation
import WatcherCore

/// What a merchant asks for when creating a request (`watcher requests create`, `POST /api/requests`), checked
/// before the store is opened: a refused order uses up no address.
public struct RequestOrder: Sendable, Hashable {
    /// The amount: sat, or a fiat amount turned into sat at the stored price.
    public enum Amount: Sendable, Hashable {
        case sat(Int64)
        case fiat(Decimal, currency: String)
    }

    /// A refusal naming the field.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The field (`sat`, `amount`, `currency`, `label`, `orderId`, `expires`, `wallet`).
        public var field: String
        /// Why.
        public var reason: String

        public init(_ field: String, _ reason: String) {
            self.field = field
            self.reason = reason
        }

        public var description: String { "\(field): \(reason)" }
    }

    /// The smallest amount a request may ask for, in sat: Bitcoin Core's dust limit for a P2PKH output (546), the
    /// most conservative of the output types (a smaller payment may not relay).
    public static let dustSat: Int64 = 546
    /// The most characters of an order id.
    public static let maxOrderIdCharacters = 100
    /// The currencies a price feed quotes (`docs/providers.md`).
    public static let currencies: Set<String> = ["USD", "EUR", "GBP"]

    /// The wallet.
    public var wallet: String
    /// The amount.
    public var amount: Amount
    /// The label (names the payee or the order in the URI).
    public var label: String?
    /// The merchant's order id.
    public var orderId: String?
    /// Overrides the wallet's `requests.expires`.
    public var expires: Duration?

    /// Creates an order.
    public init(wallet: String, amount: Amount, label: String? = nil, orderId: String? = nil, expires: Duration? = nil)
    {
        self.wallet = wallet
        self.amount = amount
        self.label = label
        self.orderId = orderId
        self.expires = expires
    }

    /// Refuses what no store can make right: a non-positive or dust amount, an unknown currency, an over-long label
    /// or order id, an expiry under a second or over a year.
    public func validate() throws(Refusal) {
        switch amount {
        case .sat(let sat):
            guard sat > 0 else { throw Refusal("sat", "expected a positive amount of sat, got \(sat)") }
            guard sat >= Self.dustSat else {
                throw Refusal("sat", "\(sat) sat is below the dust limit (\(Self.dustSat) sat): it may not relay")
            }
            guard sat <= 2_100_000_000_000_000 else { throw Refusal("sat", "\(sat) sat is more than all bitcoin") }
        case .fiat(let value, let currency):
            guard value > 0 else { throw Refusal("amount", "expected a positive amount, got \(value)") }
            guard Self.currencies.contains(currency) else {
                throw Refusal(
                    "currency",
                    "unknown currency \"\(currency)\"; known: \(Self.currencies.sorted().joined(separator: ", "))"
                )
            }
        }
        if let label, let problem = LabelRule.problem(label) { throw Refusal("label", problem) }
        if let orderId {
            guard !orderId.isEmpty else { throw Refusal("orderId", "the order id is empty") }
            guard orderId.count <= Self.maxOrderIdCharacters else {
                throw Refusal(
                    "orderId",
                    "the order id has \(orderId.count) characters; the limit is \(Self.maxOrderIdCharacters)"
                )
            }
        }
        if let expires, expires < .seconds(1) || expires > .seconds(366 * 86_400) {
            throw Refusal("expires", "expected from 1s to 366d, got \(expires.configText)")
        }
    }
}

import Foundation

/// A BTC price in one fiat currency. Prices are `Decimal`, never `Double`.
public struct PriceQuote: Sendable, Hashable, Codable {
    /// ISO 4217 code, upper case: `USD`, `GBP`, `EUR`.
    public var currency: String
    /// Fiat units per 1 BTC.
    public var price: Decimal
    /// When the source quoted it.
    public var time: Date
    /// The provider id it came from.
    public var provider: String

    /// Creates a quote.
    public init(currency: String, price: Decimal, time: Date, provider: String) {
        self.currency = currency
        self.price = price
        self.time = time
        self.provider = provider
    }
}

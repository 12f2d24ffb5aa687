import Foundation
import WatcherCore

/// Bitcoin prices in USD, GBP and EUR as a seeded random walk.
///
/// Each ``step()`` moves every price by a uniform random amount within ±0.5%, kept to four decimal
/// places like CoinDesk's index. Prices are `Decimal`, never floating point.
public struct PriceModel: Sendable {
    /// The starting prices when none are configured.
    public static let defaultPrices: [PriceCurrency: Decimal] = [
        .usd: Decimal(65_000),
        .gbp: Decimal(51_000),
        .eur: Decimal(60_000),
    ]

    private var rng: SplitMixRandom
    /// The current prices.
    public private(set) var prices: [PriceCurrency: Decimal]
    /// Unix time of the last change (`0` until set by the owner).
    public var updatedAt: Double = 0

    /// Creates a walk starting at `prices` (missing currencies take ``defaultPrices``).
    public init(seed: UInt64, prices: [PriceCurrency: Decimal] = [:]) {
        rng = SplitMixRandom(seed: seed ^ 0x5052_4943_4553_2121)
        self.prices = Self.defaultPrices.merging(prices) { _, new in new }
    }

    /// The price in `currency`.
    public func price(_ currency: PriceCurrency) -> Decimal {
        prices[currency] ?? Self.defaultPrices[currency] ?? 0
    }

    /// Moves every price one step of the walk.
    public mutating func step() {
        for currency in PriceCurrency.allCases {
            let basisPoints = Decimal(rng.next(in: -50...50))  // hundredths of a percent
            let current = price(currency)
            prices[currency] = Self.rounded(current + current * basisPoints / 10_000, places: 4)
        }
    }

    /// Overrides some prices; non-positive values are ignored.
    public mutating func set(_ newPrices: [PriceCurrency: Decimal]) {
        for (currency, value) in newPrices where value > 0 {
            prices[currency] = value
        }
    }

    /// `value` rounded half-up to `places` decimal places.
    static func rounded(_ value: Decimal, places: Int) -> Decimal {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, places, .plain)
        return output
    }
}

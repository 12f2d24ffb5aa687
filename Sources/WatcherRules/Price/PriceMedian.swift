import Foundation
import WatcherCore

/// The median of several price providers' quotes in one currency: a feed that is down, stale or wrong moves it
/// less than any one quote (a `median` price watch, a wallet's `requests.rate.sources`).
public enum PriceMedian {
    /// The median of `quotes` (one currency) as a quote: the middle price (the mean of the two middle ones for an
    /// even count), the time of the oldest quote, and `median of a, b, c` as its provider. One quote is itself;
    /// none is `nil`.
    public static func combine(_ quotes: [PriceQuote]) -> PriceQuote? {
        guard let first = quotes.first else { return nil }
        guard quotes.count > 1 else { return first }
        let prices = quotes.map(\.price).sorted()
        let middle = prices.count / 2
        let price = prices.count % 2 == 1 ? prices[middle] : (prices[middle - 1] + prices[middle]) / 2
        return PriceQuote(
            currency: first.currency,
            price: price,
            time: quotes.map(\.time).min() ?? first.time,
            provider: "median of " + quotes.map(\.provider).joined(separator: ", ")
        )
    }
}

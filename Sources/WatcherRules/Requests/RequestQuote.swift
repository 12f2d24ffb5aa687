import Foundation
import WatcherCore

/// Turns a fiat amount into sat at a quoted price, rounding up, so the payer never pays less than asked.
public enum RequestQuote {
    /// A refused quote.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// Why.
        public var description: String
    }

    /// The sat for `amount` at `quote`, refusing a quote older than `maxAgeSeconds` at `now`, or not positive.
    public static func sats(amount: Decimal, quote: PriceQuote?, currency: String, maxAgeSeconds: Int, now: Date)
        throws(Refusal) -> Int64
    {
        guard let quote else {
            throw Refusal(
                description: "no \(currency) price is stored yet: a price watch for \(currency) must run first"
            )
        }
        guard quote.price > 0 else { throw Refusal(description: "the stored \(currency) price is \(quote.price)") }
        let age = now.timeIntervalSince(quote.time)
        guard age <= TimeInterval(maxAgeSeconds) else {
            throw Refusal(
                description: "the \(currency) price is \(Int(age)) s old (from \(quote.provider)); requests.rate."
                    + "maxAgeSeconds allows \(maxAgeSeconds)"
            )
        }
        var exact = amount * 100_000_000 / quote.price
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 0, .up)
        return NSDecimalNumber(decimal: rounded).int64Value
    }

}

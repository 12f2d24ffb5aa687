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
                    + "maxAge allows \(maxAgeSeconds) s"
            )
        }
        var exact = amount * 100_000_000 / quote.price
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 0, .up)
        return NSDecimalNumber(decimal: rounded).int64Value
    }

    /// The quote a request of `terms` takes in `currency`: without `rate.sources`, `latest` (the newest stored
    /// price); with them, the median of the sources' quotes no older than `maxAge` at `now` (`stored`: their
    /// stored quotes), refused when fewer than `rate.agree` are. Returns the quote and, for a median, the sources'
    /// quotes it took.
    public static func quote(
        currency: String,
        terms: RequestTerms,
        latest: PriceQuote?,
        stored: [PriceQuote],
        now: Date
    ) throws(Refusal) -> (quote: PriceQuote?, sources: [PriceQuote]?) {
        guard let sources = terms.rateSources, !sources.isEmpty else { return (latest, nil) }
        let agree = terms.rateAgree ?? (sources.count / 2 + 1)
        let maxAge = TimeInterval(terms.maxRateAgeSeconds)
        let fresh = stored.filter { sources.contains($0.provider) && now.timeIntervalSince($0.time) <= maxAge }
        guard fresh.count >= agree else {
            let missing = sources.filter { source in !fresh.contains { $0.provider == source } }.map { source in
                guard let old = stored.first(where: { $0.provider == source }) else { return "\(source) has none" }
                return "\(source)'s is \(Int(now.timeIntervalSince(old.time))) s old"
            }
            throw Refusal(
                description: "\(fresh.count) of the \(currency) prices of \(sources.joined(separator: ", ")) "
                    + "\(fresh.count == 1 ? "is" : "are") at most \(terms.maxRateAgeSeconds) s old "
                    + "(\(missing.joined(separator: "; "))); requests.rate.agree needs \(agree)"
            )
        }
        let ordered = sources.compactMap { source in fresh.first { $0.provider == source } }
        return (PriceMedian.combine(ordered), ordered)
    }

    /// The price now that a late payment's drift is judged against: the median of the sources' stored quotes
    /// under `rate.sources` (whatever their age, as the newest stored price is), else `latest`.
    public static func rateNow(terms: RequestTerms, latest: PriceQuote?, stored: [PriceQuote]) -> Decimal? {
        guard let sources = terms.rateSources, !sources.isEmpty else { return latest?.price }
        return PriceMedian.combine(stored.filter { sources.contains($0.provider) })?.price
    }

}

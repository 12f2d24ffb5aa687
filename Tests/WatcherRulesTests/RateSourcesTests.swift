import Foundation
import Testing
import WatcherCore

@testable import WatcherRules

/// `requests.rate.sources` and `median` price watches, on values: the median of several providers' quotes, and
/// which of them a fiat request may take (`rate.maxAge`, `rate.agree`).
struct RateSourcesTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func quote(_ provider: String, _ price: String, age: TimeInterval = 0) -> PriceQuote {
        PriceQuote(currency: "EUR", price: Decimal(string: price)!, time: now - age, provider: provider)
    }

    static func terms(_ sources: [String]?, agree: Int? = nil) -> RequestTerms {
        RequestTerms(maxRateAgeSeconds: 600, rateSources: sources, rateAgree: agree)
    }

    @Test func theMedianIgnoresOneWrongFeedAndAveragesTheTwoMiddleOnesOfAnEvenCount() throws {
        let odd = try #require(
            PriceMedian.combine([
                Self.quote("a", "61000.10", age: 30), Self.quote("b", "90000"), Self.quote("c", "60500.05", age: 5),
            ])
        )
        #expect(odd.price == Decimal(string: "61000.10")!)
        #expect(odd.time == Self.now - 30, "the oldest quote's time")
        #expect(odd.provider == "median of a, b, c")
        let even = try #require(PriceMedian.combine([Self.quote("a", "61000.10"), Self.quote("b", "61000.15")]))
        #expect(even.price == Decimal(string: "61000.125")!, "exact, no rounding")
        let one = Self.quote("a", "1")
        #expect(PriceMedian.combine([one]) == one)
        #expect(PriceMedian.combine([]) == nil)
    }

    @Test func withoutSourcesTheNewestStoredPriceIsTaken() throws {
        let latest = Self.quote("coindesk", "61234.50")
        let (quote, sources) = try RequestQuote.quote(
            currency: "EUR",
            terms: Self.terms(nil),
            latest: latest,
            stored: [Self.quote("other", "1")],
            now: Self.now
        )
        #expect(quote == latest)
        #expect(sources == nil)
    }

    @Test func aMajorityOfFreshSourcesIsEnoughAndTheStaleOneIsLeftOut() throws {
        let stored = [Self.quote("a", "61000", age: 700), Self.quote("b", "61200", age: 10), Self.quote("c", "60800")]
        let (quote, sources) = try RequestQuote.quote(
            currency: "EUR",
            terms: Self.terms(["a", "b", "c"]),
            latest: Self.quote("a", "99999"),
            stored: stored,
            now: Self.now
        )
        #expect(quote?.price == 61_000, "the mean of b's 61,200 and c's 60,800; a's is 700 s old")
        #expect(quote?.provider == "median of b, c")
        #expect(sources?.map(\.provider) == ["b", "c"])
        // 61 EUR at 61,000 is 100,000 sat exactly.
        #expect(
            try RequestQuote.sats(amount: 61, quote: quote, currency: "EUR", maxAgeSeconds: 600, now: Self.now)
                == 100_000
        )
    }

    @Test func fewerFreshSourcesThanAgreeIsRefusedNamingEachMissingOne() {
        let stored = [Self.quote("a", "61000", age: 700), Self.quote("b", "61200")]
        #expect {
            try RequestQuote.quote(
                currency: "EUR",
                terms: Self.terms(["a", "b", "c"], agree: 2),
                latest: nil,
                stored: stored,
                now: Self.now
            )
        } throws: { error in
            let text = (error as? RequestQuote.Refusal)?.description ?? ""
            return text.contains("1 of the EUR prices of a, b, c is at most 600 s old")
                && text.contains("a's is 700 s old") && text.contains("c has none")
                && text.contains("requests.rate.agree needs 2")
        }
    }

    @Test func theRateALatePaymentIsJudgedAgainstIsTheSourcesMedian() {
        let stored = [Self.quote("a", "60000"), Self.quote("b", "62000"), Self.quote("c", "1000000")]
        #expect(RequestQuote.rateNow(terms: Self.terms(["a", "b", "c"]), latest: nil, stored: stored) == 62_000)
        #expect(RequestQuote.rateNow(terms: Self.terms(nil), latest: Self.quote("x", "5"), stored: stored) == 5)
    }
}

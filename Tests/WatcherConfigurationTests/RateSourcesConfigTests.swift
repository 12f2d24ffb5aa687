import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherPlugins

/// A wallet's `requests.rate.sources` and `agree`, and a price watch's `median`: read, defaulted, and checked
/// against the price watches that ask the sources.
struct RateSourcesConfigTests {
    static let providers =
        #"[{"id": "a", "type": "blockbook", "options": {"url": "https://a.example"}},"#
        + #" {"id": "cd", "type": "coindesk"},"#
        + #" {"id": "kr", "type": "json-price", "options": {"preset": "kraken"}},"#
        + #" {"id": "cb", "type": "json-price", "options": {"preset": "coinbase"}}, {"id": "ra", "type": "rawaddr"}]"#

    /// A price watch with `priceFields` over cd, kr, cb, and a wallet whose `rate` block is `rate`.
    static func config(rate: String, priceFields: String = #""median": true"#) -> String {
        ConfigCheckTests.config(
            providers: providers,
            watches: #"[{"id": "p", "type": "price", "providers": ["cd", "kr", "cb"], "currency": "EUR", "#
                + #"\#(priceFields)}, {"id": "w", "type": "wallet", "providers": ["a"], "#
                + #""xpub": "\#(WalletKeys.zpub)", "requests": {"rate": \#(rate)}}]"#
        )
    }

    static let cases: [ConfigErrorTests.Case] = [
        .init(
            name: "a source no provider has",
            json: config(rate: #"{"sources": ["cd", "kraken"]}"#),
            path: "watches[1].requests.rate.sources[1]",
            message: #"no provider has id "kraken""#
        ),
        .init(
            name: "a source that serves no prices",
            json: config(rate: #"{"sources": ["cd", "ra"]}"#),
            path: "watches[1].requests.rate.sources[1]",
            message: #"provider "ra" (rawaddr) does not serve prices"#
        ),
        .init(
            name: "a source a failover watch asks only when the first fails",
            json: config(rate: #"{"sources": ["cd", "kr"]}"#, priceFields: #""emitUpdates": false"#),
            path: "watches[1].requests.rate.sources[1]",
            message: #""kr" is asked by price watch "p" only when the providers before it fail: set "median": true "#
                + "there"
        ),
        .init(
            name: "a source no price watch asks",
            json: config(rate: #"{"sources": ["cd", "a"]}"#),
            path: "watches[1].requests.rate.sources[1]",
            message: #"no price watch asks "a": add it to a price watch with "median": true"#
        ),
        .init(
            name: "a source named twice",
            json: config(rate: #"{"sources": ["cd", "cd"]}"#),
            path: "watches[1].requests.rate.sources[1]",
            message: #""cd" is named twice"#
        ),
        .init(
            name: "agree above the sources",
            json: config(rate: #"{"sources": ["cd", "kr"], "agree": 3}"#),
            path: "watches[1].requests.rate.agree",
            message: "agree 3 needs 3 sources; rate.sources names 2"
        ),
        .init(
            name: "agree without sources",
            json: config(rate: #"{"agree": 2}"#),
            path: "watches[1].requests.rate.agree",
            message: "agree needs sources: the price providers whose quotes must agree"
        ),
        .init(
            name: "median on a wallet watch",
            json: ConfigCheckTests.config(
                providers: providers,
                watches: #"[{"id": "w", "type": "wallet", "providers": ["a"], "xpub": "\#(WalletKeys.zpub)", "#
                    + #""median": true}]"#
            ),
            path: "watches[0].median",
            message: #""median" belongs to price watches, not wallet"#
        ),
    ]

    @Test(arguments: cases)
    func reportsPathAndMessage(_ testCase: ConfigErrorTests.Case) {
        ConfigErrorTests.expectReported(testCase)
    }

    @Test func sourcesAndAgreeAreReadWithAMajorityByDefault() throws {
        let loader = ConfigLoader(registry: .builtIn, environment: [:])
        let three = try loader.load(bytes: Array(Self.config(rate: #"{"sources": ["cd", "kr", "cb"]}"#).utf8))
        #expect(three.watches[0].median)
        #expect(three.watches[1].requests?.rateSources == ["cd", "kr", "cb"])
        #expect(three.watches[1].requests?.rateAgree == 2)
        let all = try loader.load(bytes: Array(Self.config(rate: #"{"sources": ["cd", "kr"], "agree": 1}"#).utf8))
        #expect(all.watches[1].requests?.rateAgree == 1)
        // The first provider of a failover price watch is asked every round: it may be the one source.
        let first = try loader.load(
            bytes: Array(Self.config(rate: #"{"sources": ["cd"]}"#, priceFields: #""emitUpdates": false"#).utf8)
        )
        #expect(first.watches[1].requests?.rateSources == ["cd"])
        #expect(first.watches[1].requests?.rateAgree == 1)
        #expect(!first.watches[0].median)
        // `check` prints what the median costs: a quote request to each provider every round.
        let job = try #require(JobPlan(config: three).jobs.first { $0.name == "watch p" })
        #expect(job.detail.hasSuffix("; median: each of cd, kr, cb is asked every round"), "\(job.detail)")
        #expect(job.requestsPerHour == 60, "CoinDesk: one request for all currencies, every 1m by default")
        #expect(job.alsoAsks == ["kr": 180, "cb": 180], "json-price: one request per currency (USD, GBP, EUR)")
        // Without sources nothing changes: the newest stored price.
        let plain = try loader.load(bytes: Array(Self.config(rate: "{}").utf8))
        #expect(plain.watches[1].requests?.rateSources == nil)
    }
}

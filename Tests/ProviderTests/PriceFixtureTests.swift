import CoinDeskAdapter
import Foundation
import JSONPriceAdapter
import Testing
import WatcherCore
import WatcherTesting

/// The real CoinDesk, Coinbase, Kraken and CoinGecko fixtures, served over loopback HTTP and decoded through the
/// real transport and the CoinDesk and json-price adapters, with the variants the BPI feed has shown (rates with
/// commas, entity or missing symbols). Presets keep their path and query; only the host is the loopback server.
@Suite("Price fixtures")
struct PriceFixtureTests {
    static let updated = Date(timeIntervalSince1970: 1_633_002_480)  // 2021-09-30T11:48:00Z

    /// A CoinDesk adapter, its feed the loopback server.
    static func coinDesk(_ server: FixtureServer) -> CoinDeskProvider {
        CoinDeskProvider(id: "cd", baseURL: server.baseURL, http: server.http)
    }

    /// A json-price adapter on `preset` quoting USD, its host the loopback server.
    static func feed(_ preset: JSONPricePreset) -> (FixtureServer) -> JSONPriceProvider {
        { server in
            JSONPriceProvider(
                id: preset.rawValue,
                feed: JSONPriceFeed(preset: preset).served(at: server.baseURL),
                currencies: ["USD"],
                http: server.http
            )
        }
    }

    @Test func coinDeskCurrentPriceExactDecimals() async throws {
        let answers = ["/v1/bpi/currentprice.json": try Fixture.answer("price/coindesk_currentprice_2021-09-30.json")]
        let quotes = try await FixtureServer.with(answers, adapter: Self.coinDesk) {
            try await $0.quotes(for: ["USD", "GBP", "EUR"])
        }
        #expect(quotes.map(\.currency) == ["USD", "GBP", "EUR"])
        #expect(
            quotes.map(\.price) == [
                Decimal(429_709_319) / 10_000, Decimal(319_876_477) / 10_000, Decimal(371_361_669) / 10_000,
            ]
        )
        #expect(quotes.allSatisfy { $0.time == Self.updated && $0.provider == "cd" })
    }

    @Test(arguments: [
        // rate_float dropped: the rate with its thousands comma.
        (#","rate_float":42970.9319"#, ""),
        // rate_float as a numeric string, as in the official docs' CNY sample.
        (#""rate_float":42970.9319"#, #""rate_float":"42970.9319""#),
        // No symbol, and no updatedISO: the `updated` text.
        (#""symbol":"&#36;","#, ""),
    ])
    func coinDeskVariants(from: String, to: String) async throws {
        let body = try Fixture.edited("price/coindesk_currentprice_2021-09-30.json") {
            var text = $0.replacingOccurrences(of: from, with: to)
            if from.contains("symbol") {
                text = text.replacingOccurrences(of: #""updatedISO":"2021-09-30T11:48:00+00:00","#, with: "")
            }
            return text
        }
        let quotes = try await FixtureServer.with(["/v1/bpi/currentprice.json": body], adapter: Self.coinDesk) {
            try await $0.quotes(for: ["USD"])
        }
        let quote = try #require(quotes.first)
        #expect(quote.price == Decimal(429_709_319) / 10_000)
        #expect(quote.time == Self.updated)
    }

    @Test func coinDeskUnknownCurrencyIsLeftOut() async throws {
        let answers = [
            "/v1/bpi/currentprice.json": try Fixture.answer("price/coindesk_currentprice_2021-09-30.json"),
            "/v1/bpi/currentprice/XYZ.json": try Fixture.answer(
                "price/coindesk_error_currency_not_found.txt",
                status: 404
            ),
        ]
        let quotes = try await FixtureServer.with(answers, adapter: Self.coinDesk) {
            try await $0.quotes(for: ["usd", "XYZ"])
        }
        #expect(quotes.map(\.currency) == ["USD"])
    }

    @Test func coinDeskOtherShapesAreInvalid() async throws {
        try await FixtureServer.with(
            ["/v1/bpi/currentprice.json": .text(#"[{"currency":"AUD"}]"#, status: 200)],
            adapter: Self.coinDesk
        ) { cd in
            await #expect(throws: ProviderError.self) { _ = try await cd.quotes(for: ["USD"]) }
        }
    }

    @Test func coinbaseSpotPreset() async throws {
        let answers = ["/v2/prices/BTC-USD/spot": try Fixture.answer("price/coinbase_v2_prices_btc_usd_spot.json")]
        let quotes = try await FixtureServer.with(answers, adapter: Self.feed(.coinbase)) {
            try await $0.quotes(for: ["USD"])
        }
        let quote = try #require(quotes.first)
        #expect(quote.price == Decimal(4_869_123) / 100 && quote.currency == "USD" && quote.provider == "coinbase")
    }

    @Test func krakenTickerPresetReadsTheFirstResultKey() async throws {
        let answers = [
            "/0/public/Ticker?pair=XBTUSD": try Fixture.answer("price/kraken_ticker_xbtusd_docs.json"),
            "/0/public/Ticker?pair=XBTXYZ": .text(#"{"error":["EQuery:Unknown asset pair"]}"#, status: 200),
        ]
        try await FixtureServer.with(answers, adapter: Self.feed(.kraken)) { kraken in
            let usd = try await kraken.quotes(for: ["USD"])
            #expect(usd.first?.price == Decimal(303_032) / 10)
            await #expect(
                throws: ProviderError.notFound(provider: "kraken", what: "BTC price in XYZ (EQuery:Unknown asset pair)")
            ) {
                _ = try await kraken.quotes(for: ["XYZ"])
            }
        }
    }

    @Test func coinGeckoSimplePricePreset() async throws {
        let path = "/api/v3/simple/price?ids=bitcoin&vs_currencies=usd&include_last_updated_at=true"
        let eurPath = path.replacingOccurrences(of: "=usd", with: "=eur")
        let body = try Fixture.answer("price/coingecko_simple_price_3ids_usd_eur.json")
        let quotes = try await FixtureServer.with([path: body, eurPath: body], adapter: Self.feed(.coingecko)) {
            try await $0.quotes(for: ["USD", "EUR"])
        }
        #expect(quotes.map(\.price) == [Decimal(345_939) / 100, Decimal(301_933) / 100])
        let stamped = try Fixture.edited("price/coingecko_simple_price_3ids_usd_eur.json") {
            $0.replacingOccurrences(of: #""eur": 3019.33}"#, with: #""eur": 3019.33, "last_updated_at": 1549071865}"#)
        }
        let stampedQuotes = try await FixtureServer.with([path: stamped], adapter: Self.feed(.coingecko)) {
            try await $0.quotes(for: ["USD"])
        }
        let dated = try #require(stampedQuotes.first)
        #expect(dated.time == Date(timeIntervalSince1970: 1_549_071_865))
    }

    @Test func aNewFeedFromConfigAlone() async throws {
        // A user's feed: CoinDesk's BPI read through the generic adapter by path, with its time.
        let body = try Fixture.answer("price/coindesk_currentprice_2021-09-30.json")
        let answers = ["/v1/bpi/currentprice/GBP.json": body, "/v1/bpi/currentprice/EUR.json": body]
        let quotes = try await FixtureServer.with(answers) { server in
            let feed = JSONPriceFeed(
                url: server.baseURL + "/v1/bpi/currentprice/{currency}.json",
                pricePath: "bpi.{currency}.rate_float",
                timePath: "time.updatedISO"
            )
            let provider = JSONPriceProvider(id: "mine", feed: feed, currencies: ["GBP"], http: server.http)
            return try await provider.quotes(for: ["gbp", "EUR"])
        }
        #expect(quotes.map(\.price) == [Decimal(319_876_477) / 10_000, Decimal(371_361_669) / 10_000])
        #expect(quotes.allSatisfy { $0.time == Self.updated })
    }

    @Test func feedFailures() async throws {
        let answers: [String: FixtureServer.Answer] = [
            "/v2/prices/BTC-USD/spot": .text(#"{"data":[]}"#, status: 200),
            "/v2/prices/BTC-EUR/spot": .text(#"{"data":{"amount":"-1"}}"#, status: 200),
            "/v2/prices/BTC-GBP/spot": .text(
                #"{"errors":[{"id":"not_found","message":"Invalid currency"}]}"#,
                status: 404
            ),
            "/v2/prices/BTC-JPY/spot": .text(
                #"{"errors":[{"id":"rate_limit_exceeded","message":"Too many"}]}"#,
                status: 429
            ),
        ]
        try await FixtureServer.with(answers, adapter: Self.feed(.coinbase)) { coinbase in
            await #expect(
                throws: ProviderError.invalidResponse(provider: "coinbase", detail: "no price at data.amount")
            ) {
                _ = try await coinbase.quotes(for: ["USD"])
            }
            await #expect(throws: ProviderError.self) { _ = try await coinbase.quotes(for: ["EUR"]) }
            await #expect(
                throws: ProviderError.notFound(provider: "coinbase", what: "BTC price in GBP (Invalid currency)")
            ) {
                _ = try await coinbase.quotes(for: ["GBP"])
            }
            await #expect(throws: ProviderError.rateLimited(provider: "coinbase", retryAfter: nil)) {
                _ = try await coinbase.quotes(for: ["JPY"])
            }
        }
    }
}

import WatcherCore
import WatcherHTTP
import WatcherJSON

/// The `json-price` plugin: any JSON price feed, configured by a URL template and a path to the price.
public enum JSONPricePlugin: ProviderPlugin {
    /// Options of a `json-price` provider.
    public struct Options: ProviderOptions {
        /// The preset, if any: `coinbase`, `kraken` or `coingecko`.
        public var preset: JSONPricePreset?
        /// The URL template; `{currency}` / `{currency_lower}` are replaced per request.
        public var url: String?
        /// The path to the price, e.g. `data.amount` (`{currency}` / `{currency_lower}` allowed).
        public var pricePath: String?
        /// The path to the quote time, if the feed has one.
        public var timePath: String?
        /// Currencies to quote.
        public var currencies: [String]
        /// Timeout, body cap, headers.
        public var http: HTTPOptions

        public init(from reader: ObjectReader) {
            let presetName = reader.choice(
                "preset",
                JSONPricePreset.allCases.map(\.rawValue) + ["none"],
                default: "none",
                doc: "A known feed: coinbase, kraken, coingecko, or none."
            )
            preset = JSONPricePreset(rawValue: presetName)
            url = reader.url(
                "url",
                doc: "URL template; {currency} and {currency_lower} are replaced. Overrides the preset's."
            )
            pricePath = reader.string("pricePath", doc: "Path to the price, e.g. \"data.amount\" or \"result.*.c[0]\".")
            timePath = reader.string("timePath", doc: "Path to the quote time (ISO 8601 or unix seconds), if any.")
            currencies = reader.strings("currencies", default: ["USD", "GBP", "EUR"], doc: "Currencies to quote.")
            http = HTTPOptions(from: reader)
            if preset == nil, !reader.context.hasErrors(under: reader.path.key("preset")) {
                if url == nil { reader.context.error(reader.path.key("url"), "a feed without a preset needs \"url\"") }
                if pricePath == nil {
                    reader.context.error(reader.path.key("pricePath"), "a feed without a preset needs \"pricePath\"")
                }
            }
            for (key, path) in [("pricePath", pricePath), ("timePath", timePath)] {
                guard let path, JSONPath(JSONPriceFeed.fill(path, currency: "USD")) == nil else { continue }
                reader.context.error(
                    reader.path.key(key),
                    "expected a path such as \"data.amount\" or \"result.*.c[0]\", got \(JSONValue.quoted(path))"
                )
            }
        }

        public var defaultRateLimit: RateLimit? { preset?.rateLimit }

        /// A feed quotes the currencies its `currencies` option lists.
        public var priceCurrencies: [String]? { currencies }
    }

    public static let descriptor = PluginDescriptor.provider(
        type: "json-price",
        summary: "Generic JSON price feed by URL and JSON path, with presets for Coinbase, Kraken and CoinGecko.",
        prices: true,
        defaultRateLimit: RateLimit(requests: 30, per: .seconds(60), burst: 5, concurrency: 2),
        presetRateLimits: Dictionary(JSONPricePreset.allCases.map { ($0.rawValue, $0.rateLimit) }) { first, _ in first
        },
        requestPerCurrency: true
    )

    public static func makePriceProvider(id: String, options: Options, context: PluginContext) throws
        -> (any PriceProvider)?
    {
        guard let feed = JSONPriceFeed(options: options) else {
            throw PluginError(message: "provider \(id): a feed without a preset needs \"url\" and \"pricePath\"")
        }
        return JSONPriceProvider(
            id: id,
            feed: feed,
            currencies: options.currencies,
            http: context.http,
            options: options.http
        )
    }
}

/// Known feeds for `json-price`.
public enum JSONPricePreset: String, Sendable, CaseIterable {
    /// Coinbase spot: `/v2/prices/BTC-{CUR}/spot`, `data.amount`.
    case coinbase
    /// Kraken ticker: `/0/public/Ticker?pair=XBT{CUR}`, last trade `result.*.c[0]`.
    case kraken
    /// CoinGecko simple price: `/api/v3/simple/price?ids=bitcoin&vs_currencies={cur}`, `bitcoin.{cur}`.
    case coingecko

    /// The preset's default budget (the services' published free limits, rounded down).
    public var rateLimit: RateLimit {
        switch self {
        case .coinbase: RateLimit(requests: 60, per: .seconds(60), burst: 10, concurrency: 2)
        case .kraken: RateLimit(requests: 30, per: .seconds(60), burst: 5, concurrency: 2)
        case .coingecko: RateLimit(requests: 10, per: .seconds(60), burst: 3, concurrency: 1)
        }
    }
}

import WatcherCore
import WatcherHTTP

/// The `coindesk` plugin: the CoinDesk BPI v1 shape (`/v1/bpi/currentprice.json`), served by compatible feeds.
public enum CoinDeskPlugin: ProviderPlugin {
    /// Options of a `coindesk` provider.
    public struct Options: ProviderOptions {
        /// The feed's base URL.
        public var url: String
        /// Timeout, body cap, headers.
        public var http: HTTPOptions

        public init(from reader: ObjectReader) {
            url = reader.url("url", default: "https://api.coindesk.com", doc: "Base URL of the BPI v1 feed.")
            http = HTTPOptions(from: reader)
        }

        /// Any: USD, GBP and EUR come from `currentprice.json`, other codes from `currentprice/<CODE>.json`.
        public var priceCurrencies: [String]? { nil }
    }

    public static let descriptor = PluginDescriptor.provider(
        type: "coindesk",
        summary: "CoinDesk BPI v1 currentprice feed (USD, GBP, EUR), or any feed of that shape.",
        prices: true,
        defaultRateLimit: RateLimit(requests: 30, per: .seconds(60), burst: 5, concurrency: 2)
    )

    public static func makePriceProvider(id: String, options: Options, context: PluginContext) throws
        -> (any PriceProvider)?
    {
        CoinDeskProvider(id: id, baseURL: options.url, http: context.http, options: options.http)
    }
}

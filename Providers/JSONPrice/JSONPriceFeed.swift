import Foundation
import WatcherCore

/// What one `json-price` provider asks and reads: a URL template and paths, from a preset or from config.
///
/// Templates and paths may hold `{currency}` (upper case, `USD`) and `{currency_lower}` (`usd`).
public struct JSONPriceFeed: Sendable, Hashable, SecretBearing {
    /// The URL template.
    public var url: String
    /// The path to the price.
    public var pricePath: String
    /// The path to the quote time, if the feed has one.
    public var timePath: String?

    /// Creates a feed.
    public init(url: String, pricePath: String, timePath: String? = nil) {
        self.url = url
        self.pricePath = pricePath
        self.timePath = timePath
    }

    /// A preset's feed at the public service.
    public init(preset: JSONPricePreset) {
        switch preset {
        case .coinbase:
            self.init(url: "https://api.coinbase.com/v2/prices/BTC-{currency}/spot", pricePath: "data.amount")
        case .kraken:
            self.init(url: "https://api.kraken.com/0/public/Ticker?pair=XBT{currency}", pricePath: "result.*.c[0]")
        case .coingecko:
            self.init(
                url: "https://api.coingecko.com/api/v3/simple/price?ids=bitcoin&vs_currencies={currency_lower}"
                    + "&include_last_updated_at=true",
                pricePath: "bitcoin.{currency_lower}",
                timePath: "bitcoin.last_updated_at"
            )
        }
    }

    /// The feed the options describe: the preset's, with `url`, `pricePath` and `timePath` overriding it.
    /// `nil` when there is no preset and `url` or `pricePath` is missing.
    public init?(options: JSONPricePlugin.Options) {
        let base = options.preset.map(JSONPriceFeed.init(preset:))
        guard let url = options.url ?? base?.url, let pricePath = options.pricePath ?? base?.pricePath else {
            return nil
        }
        self.init(url: url, pricePath: pricePath, timePath: options.timePath ?? base?.timePath)
    }

    /// `template` with the currency placeholders filled in.
    public static func fill(_ template: String, currency: String) -> String {
        template.replacingOccurrences(of: "{currency}", with: currency.uppercased())
            .replacingOccurrences(of: "{currency_lower}", with: currency.lowercased())
    }
}

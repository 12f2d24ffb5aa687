import Foundation
import JSONPriceAdapter
import WatcherTesting

extension JSONPriceFeed {
    /// The same feed (path, query, price and time paths) served from `baseURL` instead of the public service:
    /// `https://api.coinbase.com/v2/prices/BTC-{currency}/spot` at `http://127.0.0.1:5000` is
    /// `http://127.0.0.1:5000/v2/prices/BTC-{currency}/spot`.
    func served(at baseURL: String) -> JSONPriceFeed {
        var feed = self
        let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let pathAndQuery = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? ""
        feed.url = baseURL + pathAndQuery
        return feed
    }
}

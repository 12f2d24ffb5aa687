import Foundation
import HTTPTypes
import WatcherCore
import WatcherHTTP

/// Any JSON price feed as a ``PriceProvider``: one `GET` per currency of the feed's URL template, the price
/// read at its path (a JSON number's exact text or a numeric string, never a `Double`), the time at its time
/// path (unix seconds or ISO 8601) when the body has it, else the response's `Date` header, else the fetch time.
///
/// A missing price with an error in the body (Kraken `error[]`, Coinbase `errors[]`, CoinGecko
/// `status.error_message`) or a 400/404 means the feed does not quote that currency: it is left out. A missing
/// price without one, a non-positive price, or a body that is not JSON is an invalid response.
public struct JSONPriceProvider: PriceProvider {
    public let id: String
    public let currencies: [String]
    /// What it asks and reads.
    public let feed: JSONPriceFeed
    let http: ProviderHTTP

    /// Creates a provider.
    public init(
        id: String,
        feed: JSONPriceFeed,
        currencies: [String],
        http: any HTTPFetching,
        options: HTTPOptions = .standard
    ) {
        self.id = id
        self.feed = feed
        self.currencies = currencies.map { $0.uppercased() }
        self.http = ProviderHTTP(provider: id, baseURL: "", http: http, options: options)
    }

    public func quotes(for requested: [String]) async throws -> [PriceQuote] {
        var quotes: [PriceQuote] = []
        var missing: ProviderError?
        for code in requested.map({ $0.uppercased() }) where !quotes.contains(where: { $0.currency == code }) {
            guard (2...10).contains(code.count), code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                continue
            }
            do {
                quotes.append(try await quote(code))
            } catch let error as ProviderError {
                guard case .notFound = error else { throw error }
                missing = missing ?? error
            }
        }
        if quotes.isEmpty, let missing { throw missing }
        return quotes
    }

    /// Fetches and reads one currency's quote.
    public func quote(_ currency: String) async throws -> PriceQuote {
        let url = JSONPriceFeed.fill(feed.url, currency: currency)
        let response = try await http.get(url: url)
        try http.checkStatus(response)
        let what = "BTC price in \(currency)"
        guard response.status == 200 else {
            let detail = (try? http.json(response)).flatMap(Self.feedError) ?? ProviderHTTP.snippet(response.body)
            if response.status == 400 || response.status == 404 {
                throw ProviderError.notFound(provider: id, what: "\(what) (\(detail))")
            }
            throw ProviderError.unavailable(
                provider: id,
                status: response.status.code,
                detail: detail.isEmpty ? nil : detail
            )
        }
        let root = try http.json(response)
        let pricePath = JSONPriceFeed.fill(feed.pricePath, currency: currency)
        guard let path = JSONPath(pricePath) else { throw root.failure("invalid price path \(pricePath)") }
        guard let node = path.resolve(in: root) else {
            if let error = Self.feedError(root) {
                throw ProviderError.notFound(provider: id, what: "\(what) (\(error))")
            }
            throw root.failure("no price at \(pricePath)")
        }
        let price = try node.decimal()
        guard price > 0 else { throw node.failure("expected a positive price at \(pricePath), got \(price)") }
        return PriceQuote(
            currency: currency,
            price: price,
            time: try time(root, response: response, currency: currency),
            provider: id
        )
    }

    private func time(_ root: ProviderHTTP.JSONNode, response: HTTPResponseData, currency: String) throws -> Date {
        // A configured time path that the body lacks (e.g. CoinGecko without `include_last_updated_at`)
        // falls back like a feed without one; a time that is there but unreadable is an invalid response.
        if let template = feed.timePath, let path = JSONPath(JSONPriceFeed.fill(template, currency: currency)),
            let node = path.resolve(in: root)
        {
            return try node.date()
        }
        if let header = response.headerFields[.date], let date = HTTPDate.parse(header, obsoleteForms: false) {
            return date
        }
        return http.time.now()
    }

    /// The error a feed put in its body, if any: Kraken `error[]`, Coinbase `errors[].message`, CoinGecko
    /// `status.error_message`, or a plain `error` string.
    static func feedError(_ root: ProviderHTTP.JSONNode) -> String? {
        if let errors = try? root["errors"]?.array(), let first = errors.first {
            return (try? first["message"]?.string()) ?? (try? first["id"]?.string()) ?? "error"
        }
        if let list = try? root["error"]?.array(), !list.isEmpty {
            return list.compactMap { try? $0.string() }.joined(separator: "; ")
        }
        if let text = try? root["error"]?.string(), !text.isEmpty { return text }
        return (try? root["status"]?["error_message"]?.string()) ?? nil
    }
}

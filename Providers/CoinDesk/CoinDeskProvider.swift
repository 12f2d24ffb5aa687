import Foundation
import HTTPTypes
import WatcherCore
import WatcherHTTP

/// A CoinDesk BPI v1 feed (`/v1/bpi/currentprice.json`, and `/v1/bpi/currentprice/<CODE>.json` for currencies
/// beyond USD, GBP and EUR) as a ``PriceProvider``.
///
/// Prices come from `rate_float` as exact decimals (its JSON text, never a `Double`), falling back to `rate`
/// with its thousands commas removed; symbols (HTML entities, or none) are ignored. The quote time is
/// `time.updatedISO`, else `time.updated`.
public struct CoinDeskProvider: PriceProvider {
    public let id: String
    /// The currencies of `currentprice.json`; others are asked one by one.
    public var currencies: [String] { ["USD", "GBP", "EUR"] }
    let http: ProviderHTTP

    /// Creates a provider for the feed at `baseURL`.
    public init(id: String, baseURL: String, http: any HTTPFetching, options: HTTPOptions = .standard) {
        self.id = id
        self.http = ProviderHTTP(provider: id, baseURL: baseURL, http: http, options: options)
    }

    var decoder: CoinDeskDecoder { CoinDeskDecoder(provider: id) }

    public func quotes(for requested: [String]) async throws -> [PriceQuote] {
        var wanted: [String] = []
        for code in requested.map({ $0.uppercased() }) where !wanted.contains(code) { wanted.append(code) }
        guard !wanted.isEmpty else { return [] }
        var quotes: [PriceQuote] = []
        if wanted.contains(where: currencies.contains) {
            quotes = try decoder.quotes(try await fetch("/v1/bpi/currentprice.json"), currencies: wanted)
        }
        for code in wanted where !quotes.contains(where: { $0.currency == code }) {
            guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else { continue }
            do {
                quotes += try decoder.quotes(try await fetch("/v1/bpi/currentprice/\(code).json"), currencies: [code])
            } catch ProviderError.notFound {
                continue  // "Sorry, that currency was not found": left out, as the protocol asks
            }
        }
        return wanted.compactMap { code in quotes.first { $0.currency == code } }
    }

    /// GETs a path and returns its JSON; CoinDesk's errors are plain text (404 for unknown currencies).
    func fetch(_ path: String) async throws -> ProviderHTTP.JSONNode {
        let response = try await http.get(path)
        try http.checkStatus(response)
        switch response.status {
        case 200: return try http.json(response)
        case 404: throw ProviderError.notFound(provider: id, what: "price at \(path)")
        default:
            let text = ProviderHTTP.snippet(response.body)
            throw ProviderError.unavailable(
                provider: id,
                status: response.status.code,
                detail: text.isEmpty ? nil : text
            )
        }
    }
}

import Foundation
import WatcherCore
import WatcherHTTP
import WatcherJSON

/// Decodes CoinDesk BPI v1 `currentprice` bodies into quotes.
public struct CoinDeskDecoder: Sendable {
    /// The provider id errors name.
    public let provider: String

    /// Creates a decoder.
    public init(provider: String) { self.provider = provider }

    /// `updated`'s form, `Sep 30, 2021 11:48:00 UTC`.
    private static let updatedFormat: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMM d, yyyy HH:mm:ss 'UTC'"
        return formatter
    }()

    /// Quotes for those of `currencies` the body's `bpi` holds.
    /// - Throws: ``ProviderError/invalidResponse(provider:detail:)`` when `bpi` or the time is missing or a
    ///   rate is not a positive number.
    public func quotes(_ node: ProviderHTTP.JSONNode, currencies: [String]) throws -> [PriceQuote] {
        let bpi = try node.required("bpi")
        let entries = try bpi.members()
        let time = try self.time(try node.required("time"))
        return try currencies.compactMap { code -> PriceQuote? in
            guard let entry = entries.first(where: { $0.key.uppercased() == code })?.node else { return nil }
            let price = try rate(entry)
            guard price > 0 else { throw entry.failure("expected a positive rate at \(entry.place), got \(price)") }
            return PriceQuote(currency: code, price: price, time: time, provider: provider)
        }
    }

    /// `rate_float` (a JSON number, or a numeric string in old samples), else `rate` without thousands commas.
    func rate(_ entry: ProviderHTTP.JSONNode) throws -> Decimal {
        if let float = entry["rate_float"], let value = try? float.decimal() { return value }
        let rate = try entry.required("rate")
        let text = try rate.string().replacingOccurrences(of: ",", with: "").trimmingCharacters(in: .whitespaces)
        guard let value = ProviderHTTP.JSONNode.exactDecimal(text) else {
            throw rate.failure("expected a number at \(rate.place), got \(JSONValue.quoted(try rate.string()))")
        }
        return value
    }

    /// `updatedISO` (ISO 8601 with an offset), else `updated` (`Sep 30, 2021 11:48:00 UTC`).
    func time(_ node: ProviderHTTP.JSONNode) throws -> Date {
        if let iso = try node["updatedISO"]?.string(), let date = ProviderHTTP.JSONNode.iso8601(iso) { return date }
        if let text = try node["updated"]?.string(), let date = Self.updatedFormat.date(from: text) { return date }
        throw node.failure("no readable time at \(node.place) (updatedISO or updated)")
    }
}

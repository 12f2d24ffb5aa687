import WatcherCore
import WatcherJSON

/// Renders the price feeds: CoinDesk BPI v1 and Coinbase's spot price.
struct PriceRenderer: Sendable {
    let prices: PriceModel

    /// CoinDesk's disclaimer text.
    static let disclaimer =
        "This data was produced from the CoinDesk Bitcoin Price Index (USD). Non-USD currency data converted using "
        + "hourly conversion rate from openexchangerates.org"

    /// `GET /v1/bpi/currentprice.json` (all three currencies, with symbols and `chartName`), or with
    /// `code` `GET /v1/bpi/currentprice/<CODE>.json` (USD plus that currency, no symbols, no `chartName`).
    func coinDesk(code: Substring?) -> SimReply {
        var currencies = PriceCurrency.allCases
        if let code {
            guard let currency = PriceCurrency(code: code) else {
                return .text("Sorry, that currency was not found", status: 404)
            }
            currencies = currency == .usd ? [.usd] : [.usd, currency]
        }
        // The index is published once a minute.
        let minute = Int64(prices.updatedAt) / 60 * 60
        var object = JSONObjectBuilder()
        object.add(
            "time",
            .object([
                .init("updated", .string(CalendarText.coinDeskUpdated(minute))),
                .init("updatedISO", .string(CalendarText.rfc3339(minute, suffix: "+00:00"))),
                .init("updateduk", .string(CalendarText.coinDeskUpdatedUK(minute))),
            ])
        )
        object.add("disclaimer", .string(Self.disclaimer))
        if code == nil { object.add("chartName", .string("Bitcoin")) }
        let bpi: [JSONValue.Member] = currencies.map { currency in
            let price = prices.price(currency)
            var entry = JSONObjectBuilder()
            entry.add("code", .string(currency.rawValue))
            if code == nil { entry.add("symbol", .string(currency.htmlSymbol)) }
            entry.add("rate", .string(DecimalText.fixed(price, places: 4, grouping: true)))
            entry.add("description", .string(currency.longName))
            entry.add("rate_float", .number(DecimalText.number(price, places: 4)))
            return .init(currency.rawValue, entry.value)
        }
        object.add("bpi", .object(bpi))
        return .json(object.value)
    }

    /// `GET /v2/prices/BTC-<CODE>/spot`.
    func coinbaseSpot(pair: Substring) -> SimReply {
        let parts = pair.split(separator: "-")
        guard parts.count == 2, parts[0].uppercased() == "BTC", let currency = PriceCurrency(code: parts[1]) else {
            return Self.coinbaseError(id: "not_found", message: "Invalid currency (\(pair))", status: 404)
        }
        return .json(
            .object([
                .init(
                    "data",
                    .object([
                        .init("base", .string("BTC")),
                        .init("currency", .string(currency.rawValue)),
                        .init("amount", .string(DecimalText.fixed(prices.price(currency), places: 2))),
                    ])
                )
            ])
        )
    }

    /// Coinbase's error body `{"errors":[{"id":…,"message":…}]}`.
    static func coinbaseError(id: String, message: String, status: Int) -> SimReply {
        .json(
            .object([
                .init("errors", .array([.object([.init("id", .string(id)), .init("message", .string(message))])]))
            ]),
            status: status
        )
    }
}

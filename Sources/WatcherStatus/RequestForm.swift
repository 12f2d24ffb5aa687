import Foundation
import Hummingbird
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherRules

/// Reads a `POST /api/requests` body into a ``RequestOrder``, refusing with 400 and the field's name: a missing
/// or unknown wallet, an amount of the wrong type, both amounts or neither, an over-long text. The order's own
/// rules (``RequestOrder/validate()``: dust, currency, lengths) follow.
enum RequestForm {
    static func order(_ object: JSONValue, watches: [WatchConfig]) throws(WriteBody.Refusal) -> RequestOrder {
        guard let wallet = try text(object, "wallet", limit: 200) else { throw refusal("wallet: required") }
        guard watches.contains(where: { $0.kind == .wallet && $0.id == wallet && $0.requests != nil }) else {
            throw refusal("wallet: no wallet \(JSONValue.quoted(wallet)) that takes requests in the config")
        }
        let amount: RequestOrder.Amount
        switch (object["sat"], object["amount"]) {
        case (.number(let text)?, nil):
            guard let sat = Int64(text) else { throw refusal("sat: expected a whole number of sat, got \(text)") }
            amount = .sat(sat)
        case (nil, let value?):
            let decimal: Decimal?
            switch value {
            case .string(let text) where text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }):
                decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            case .number(let text):
                decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            default:
                decimal = nil
            }
            guard let decimal else { throw refusal("amount: expected a decimal such as \"25.00\"") }
            guard let currency = try text(object, "currency", limit: 10) else {
                throw refusal("currency: required with amount (USD, EUR or GBP)")
            }
            amount = .fiat(decimal, currency: currency.uppercased())
        case (let sat?, nil):
            throw refusal("sat: expected a whole number of sat, got \(sat.typeDescription)")
        case (nil, nil):
            throw refusal("sat or amount: required")
        case (_?, _?):
            throw refusal("sat and amount: give one, not both")
        }
        var expires: Duration?
        if let text = try text(object, "expires", limit: 20) {
            guard let duration = Duration(configText: text) else {
                throw refusal("expires: expected a duration such as \"15m\", got \(JSONValue.quoted(text))")
            }
            expires = duration
        }
        let label: String?
        do { label = try WriteBody.label(object) } catch { throw error }
        let order = RequestOrder(
            wallet: wallet,
            amount: amount,
            label: label,
            orderId: try text(object, "orderId", limit: .max),
            expires: expires
        )
        do { try order.validate() } catch { throw refusal(error.description) }
        return order
    }

    /// An optional string field: `nil` when absent or `null`; 400 when not a string or longer than `limit`.
    static func text(_ object: JSONValue?, _ key: String, limit: Int) throws(WriteBody.Refusal) -> String? {
        guard let value = object?[key] else { return nil }
        switch value {
        case .null: return nil
        case .string(let text):
            guard text.count <= limit else { throw refusal("\(key): \(text.count) characters; the limit is \(limit)") }
            return text
        default:
            throw refusal("\(key): expected a string, got \(value.typeDescription)")
        }
    }

    static func refusal(_ message: String) -> WriteBody.Refusal {
        WriteBody.Refusal(response: APIRoutes.error(message, status: .badRequest))
    }
}

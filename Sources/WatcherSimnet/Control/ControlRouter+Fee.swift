import Foundation
import WatcherCore
import WatcherJSON

/// `/control/fee`: the next-block fee rate every face estimates.
extension ControlRouter {
    /// `{"satPerVB": "12.5"}`: a decimal string (a JSON number is taken too, read from its text, never through
    /// `Double`), rounded to the nearest 0.001 sat/vB (half up) as the faces serve it. A body without it, or a
    /// rate that is not a number, rounds to 0 or below, or passes 21,000,000 BTC/kvB, is refused with 400.
    func fee(_ body: [UInt8]) throws -> SimReply {
        let document: JSONValue
        do {
            document = try JSONValue.parse(body)
        } catch {
            throw BadRequest(message: "invalid JSON body (expected {\"satPerVB\": \"12.5\"}): \(error)")
        }
        guard case .object = document else { throw BadRequest(message: "the body must be an object with satPerVB") }
        let text: String
        switch document["satPerVB"] {
        case .string(let value)?: text = value
        case .number(let value)?: text = value
        case nil: throw BadRequest(message: "satPerVB is missing (a decimal string, e.g. \"12.5\")")
        case let other?: throw BadRequest(message: "satPerVB must be a decimal string, got \(other.typeDescription)")
        }
        guard let value = ExactDecimal.parse(text) else {
            throw BadRequest(
                message: "satPerVB must be a decimal number such as \"12.5\", got \(JSONValue.quoted(text))"
            )
        }
        guard world.setFeeRate(value) != nil else {
            throw BadRequest(message: "satPerVB must be at least 0.001 and at most 2100000000000, got \(text)")
        }
        return fee()
    }

    /// `{"satPerVB": "12.5", "btcPerKvB": "0.00012500"}`: the rate set, and as the faces write it.
    func fee() -> SimReply {
        let rate = world.snapshot().feeRate
        return .json(
            .object([
                .init("satPerVB", .string(rate.description)),
                .init("btcPerKvB", .string(FeeRate.btcPerKvBText(satPerVB: rate) ?? "")),
            ])
        )
    }
}

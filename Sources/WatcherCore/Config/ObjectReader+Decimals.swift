import Foundation
import WatcherJSON

extension ObjectReader {
    /// An exact decimal number (prices, percentages), optionally bounded: greater than `lower` (exclusive) and at
    /// most `upper`. Never goes through `Double`.
    public func decimal(
        _ key: String,
        greaterThan lower: Decimal? = nil,
        atMost upper: Decimal? = nil,
        required: Bool = false,
        doc: String
    ) -> Decimal? {
        guard let value = raw(key, type: "number", required: required, doc: doc) else { return nil }
        guard let number = checkedDecimal(value, at: path.key(key), greaterThan: lower, atMost: upper) else {
            return nil
        }
        show(key, value)
        return number
    }

    /// An array of exact decimals, each bounded like ``decimal(_:greaterThan:atMost:required:doc:)``.
    public func decimals(
        _ key: String,
        greaterThan lower: Decimal? = nil,
        atMost upper: Decimal? = nil,
        doc: String
    ) -> [Decimal] {
        guard let value = raw(key, type: "number[]", doc: doc) else { return [] }
        guard case .array(let items) = value else {
            typeError(key, expected: "an array of numbers", got: value)
            return []
        }
        var result: [Decimal] = []
        for (index, item) in items.enumerated() {
            let itemPath = path.key(key).index(index)
            if let number = checkedDecimal(item, at: itemPath, greaterThan: lower, atMost: upper) {
                result.append(number)
            }
        }
        show(key, value)
        return result
    }

    /// `value` as a decimal within the bounds; records an error at `path` and returns `nil` otherwise.
    func checkedDecimal(_ value: JSONValue, at path: ConfigPath, greaterThan lower: Decimal?, atMost upper: Decimal?)
        -> Decimal?
    {
        guard case .number(let text) = value else {
            context.error(path, "expected a number, got \(value.typeDescription)")
            return nil
        }
        var expected = "a number"
        if let lower { expected += " greater than \(lower)" }
        if let upper { expected += (lower == nil ? " of at most " : " and at most ") + "\(upper)" }
        // JSON allows any exponent; `Decimal` holds 38 digits with exponents from -128 to 127.
        guard let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            let problem = Self.isTooLarge(text) ? "too large" : "too close to zero to represent"
            context.error(path, "expected \(expected), got \(text), which is \(problem)")
            return nil
        }
        if let lower, number <= lower {
            context.error(path, "expected \(expected), got \(text)")
            return nil
        }
        if let upper, number > upper {
            context.error(path, "expected \(expected), got \(text)")
            return nil
        }
        return number
    }

    /// Whether a JSON number that `Decimal` cannot hold is out of range because it is large (`1e999`) rather than
    /// close to zero (`1e-999`): its magnitude is estimated from the exponent and the integer digits.
    static func isTooLarge(_ text: String) -> Bool {
        let parts = text.lowercased().split(separator: "e", maxSplits: 1)
        let exponentText = parts.count > 1 ? parts[1] : "0"
        let exponent =
            Int(exponentText.drop { $0 == "+" }) ?? (exponentText.hasPrefix("-") ? Int.min / 2 : Int.max / 2)
        let mantissa = parts.first?.drop { $0 == "-" } ?? ""
        let integerDigits = mantissa.prefix { $0 != "." }.drop { $0 == "0" }
        return integerDigits.isEmpty ? exponent > 0 : exponent + integerDigits.count > 0
    }
}

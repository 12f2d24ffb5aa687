import Foundation

/// Formats `Decimal` prices the way each feed writes them, without locale dependence.
enum DecimalText {
    /// Fixed-point text with exactly `places` decimals, optionally with thousands commas:
    /// `fixed(42970.93186, places: 4, grouping: true)` is `"42,970.9319"`.
    static func fixed(_ value: Decimal, places: Int, grouping: Bool = false) -> String {
        let rounded = PriceModel.rounded(value, places: places)
        let text = rounded.description
        let negative = text.hasPrefix("-")
        let unsigned = negative ? String(text.dropFirst()) : text
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var integer = String(parts.first ?? "0")
        if integer.isEmpty { integer = "0" }
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        fraction = String((fraction + String(repeating: "0", count: places)).prefix(places))
        if grouping { integer = group(integer) }
        let sign = negative ? "-" : ""
        return places > 0 ? "\(sign)\(integer).\(fraction)" : "\(sign)\(integer)"
    }

    /// The shortest JSON number literal for `value` rounded to `places`: `65000.5`, `42970.9319`.
    static func number(_ value: Decimal, places: Int) -> String {
        PriceModel.rounded(value, places: places).description
    }

    private static func group(_ digits: String) -> String {
        var out: [Character] = []
        for (offset, char) in digits.reversed().enumerated() {
            if offset > 0 && offset % 3 == 0 { out.append(",") }
            out.append(char)
        }
        return String(out.reversed())
    }
}

import Foundation

/// Strict decimal text read into a `Decimal`, never through `Double`: what providers' amounts, prices and fee rates
/// are parsed with.
public enum ExactDecimal {
    /// `text` (`12.5`, `-1`, `1e-5`) as a `Decimal`; `nil` for anything else, partial text (`0.1x`, which
    /// `Decimal(string:)` alone would read as `0.1`) included.
    public static func parse(_ text: String) -> Decimal? {
        let pattern = #"^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#
        guard text.range(of: pattern, options: .regularExpression) != nil else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}

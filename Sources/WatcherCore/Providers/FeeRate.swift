import Foundation

/// Fee rates as providers state them (BTC per 1,000 vbytes: Core's `estimatesmartfee`, Electrum's
/// `blockchain.estimatefee`, Blockbook's `estimatefee`) and as ``ChainProvider/feeRate(blocks:)`` answers them
/// (sat/vB), converted exactly: 1 BTC/kvB is 100,000,000 sat per 1,000 vB, so sat/vB = BTC/kvB × 100,000.
///
/// ```swift
/// FeeRate.satPerVB(btcPerKvB: "0.00012299")  // 12.299
/// ```
public enum FeeRate {
    /// sat/vB in 1 BTC/kvB.
    public static let satPerVBPerBTCPerKvB: Decimal = 100_000

    /// `btcPerKvB` in sat/vB, exactly.
    public static func satPerVB(btcPerKvB: Decimal) -> Decimal {
        btcPerKvB * satPerVBPerBTCPerKvB
    }

    /// A rate written as decimal text in BTC/kvB (a JSON number's or string's text: `0.00012299`, `-1`, `1e-5`), in
    /// sat/vB exactly; `nil` when the text is not a plain decimal number (partial text such as `0.1x` included).
    /// Never goes through `Double`.
    public static func satPerVB(btcPerKvB text: String) -> Decimal? {
        ExactDecimal.parse(text).map { satPerVB(btcPerKvB: $0) }
    }

    /// The sat/vB rate `satPerVB` as BTC/kvB text with 8 decimals (`12.5` → `0.00012500`), rounded to the nearest
    /// whole sat/kvB, half up (a rate finer than 0.001 sat/vB cannot be written in 8 decimals of BTC/kvB); `nil` for a
    /// negative rate or one past 21,000,000 BTC/kvB.
    public static func btcPerKvBText(satPerVB: Decimal) -> String? {
        guard let satPerKvB = satPerKvB(satPerVB) else { return nil }
        return Satoshi.btc(satPerKvB)
    }

    /// `satPerVB` × 1,000, rounded to a whole number half up: the sat/kvB an 8-decimal BTC/kvB amount can state;
    /// `nil` for a negative rate or one past 21,000,000 BTC/kvB.
    public static func satPerKvB(_ satPerVB: Decimal) -> Int64? {
        guard satPerVB >= 0, satPerVB <= 21_000_000 * 100_000 else { return nil }
        var scaled = satPerVB * 1_000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        // Through the decimal text, never through `Double`.
        return Int64(rounded.description)
    }
}

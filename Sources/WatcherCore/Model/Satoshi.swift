/// Formats exact satoshi amounts as BTC decimal strings (8 places), with integer arithmetic only.
public enum Satoshi {
    /// `150000` → `"0.00150000"`, `-5` → `"-0.00000005"`.
    public static func btc(_ sats: Int64) -> String {
        let magnitude = sats.magnitude
        let whole = magnitude / 100_000_000
        let fraction = String(magnitude % 100_000_000)
        let padded = String(repeating: "0", count: 8 - fraction.count) + fraction
        return (sats < 0 ? "-" : "") + "\(whole).\(padded)"
    }
}

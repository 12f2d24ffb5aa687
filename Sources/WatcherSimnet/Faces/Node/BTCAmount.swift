/// Bitcoin Core's amounts: BTC as JSON numbers with exactly 8 decimals, written from integer satoshi (never through
/// `Double`). The transaction JSON itself is ``CoreTxJSON``.
enum BTCAmount {
    /// Satoshi as a BTC JSON number, e.g. `293135` → `0.00293135`, `100000000` → `1.00000000`.
    static func text(_ sat: Int64) -> String {
        let sign = sat < 0 ? "-" : ""
        let magnitude = sat.magnitude
        let fraction = String(magnitude % 100_000_000)
        return "\(sign)\(magnitude / 100_000_000)." + String(repeating: "0", count: 8 - fraction.count) + fraction
    }
}

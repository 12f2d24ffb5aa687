import Foundation
import WatcherJSON

/// The JSON of one followed account, shared by `watcher accounts list --json`, `accounts show --json` and the
/// status server's `/api/accounts`: the probe's address fields, the label, and the BTC and fiat value when the
/// balance is known.
public enum AccountJSON {
    /// `{"address", "label", "balanceSat", ..., "balanceBtc", "fiat"}`; `balanceBtc` and `fiat` only when the
    /// balance is known.
    public static func account(address: String, label: String?, summary: AddressSummary?, fiat: [PriceQuote])
        -> JSONValue
    {
        let base = (summary ?? .unknown(address)).jsonMembers
        var members = [base[0], .init("label", label.map(JSONValue.string) ?? .null)] + base.dropFirst()
        if let balance = summary?.balanceSat {
            members.append(.init("balanceBtc", .string(Satoshi.btc(balance))))
            members.append(.init("fiat", fiatValues(balance, fiat)))
        }
        return .object(members)
    }

    /// `{"EUR": "12.34", ...}` by currency.
    public static func fiatValues(_ sats: Int64, _ prices: [PriceQuote]) -> JSONValue {
        .object(
            prices.sorted { $0.currency < $1.currency }.map { .init($0.currency, .string(fiatText(sats, $0.price))) }
        )
    }

    /// The fiat value of `sats` at `price`, rounded to cents (banker's rounding), exact.
    public static func fiatText(_ sats: Int64, _ price: Decimal) -> String {
        var value = Decimal(sats) / Decimal(100_000_000) * price
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .bankers)
        return "\(rounded)"
    }
}

import WatcherCore
import WatcherJSON

extension BalanceStep {
    /// The members every balance step event carries, `address.balance.changed` and `wallet.balance.changed` alike:
    /// the transaction, its state and block, the fixed deltas, and `balanceSat` where the chain fixes it.
    func members(balanceSat: Int64?) -> [JSONValue.Member] {
        [
            .init("txid", .string(txid)),
            .init("state", .string(kind.rawValue)),
            .init("blockHeight", .integer(blockHeight)),
            .init("blockHash", .optional(blockHash)),
            .init("amountSat", .sats(amountSat)),
            .init("amountBtc", .string(Satoshi.btc(amountSat))),
            .init("deltaSat", .sats(deltaSat)),
            .init("deltaBtc", .string(Satoshi.btc(deltaSat))),
            .init("confirmedDeltaSat", .sats(confirmedDeltaSat)),
            .init("unconfirmedDeltaSat", .sats(unconfirmedDeltaSat)),
            .init("balanceSat", balanceSat.map(JSONValue.sats) ?? .null),
            .init("balanceBtc", balanceSat.map { .string(Satoshi.btc($0)) } ?? .null),
        ]
    }
}

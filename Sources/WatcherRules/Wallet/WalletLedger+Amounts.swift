import WatcherCore

/// A wallet transaction's amount: its net effect on the whole wallet, the same whoever observes it.
///
/// One commit sees a transaction at the addresses it read. Summed over those alone, the amount depends on the
/// moment of each read: an address read a moment before the transaction reached the provider (or before the block
/// that confirms it) is missing from the sum, and the step's id, announced once, would keep the short amount. So
/// the amount is taken from every address of the wallet that holds the transaction, read or stored, and, for a
/// transaction no address of the wallet held before (its first step), from the whole transaction where the
/// driver read it.
extension WalletLedger {
    /// The net effect of `tx` on the addresses in `addresses`: what its outputs pay them less what its inputs
    /// spend from them (inputs whose value or address the provider did not give count 0).
    public static func amount(of tx: ChainTransaction, addresses: Set<String>) -> Int64 {
        let received = tx.outputs.reduce(Int64(0)) { sum, output in
            output.address.map(addresses.contains) == true ? sum + output.valueSat : sum
        }
        let spent = tx.inputs.reduce(Int64(0)) { sum, input in
            input.address.map(addresses.contains) == true ? sum + input.valueSat : sum
        }
        return received - spent
    }

    /// Each stepped transaction's amount on the wallet: `whole` where given, else the sum of its amounts at every
    /// address of the wallet holding it, after this commit (`addresses`), or before it for a transaction the commit
    /// removed (a replacement): `before`, by address.
    public static func amounts(
        of steps: [BalanceStep],
        addresses: [AddressState],
        before: [String: AddressState],
        whole: [String: Int64]
    ) -> [String: Int64] {
        var result: [String: Int64] = [:]
        for txid in Set(steps.map(\.txid)) {
            if let amount = whole[txid] {
                result[txid] = amount
                continue
            }
            let held = addresses.compactMap { state in state.txs[txid] ?? before[state.address]?.txs[txid] }
            guard !held.isEmpty else { continue }
            result[txid] = held.reduce(Int64(0)) { $0 + $1.deltaSat }
        }
        return result
    }
}

import WatcherCore

/// A provider that leaves a transaction out of an address's history and summary (it lags, or it hides the address
/// from an `agree` watch) while its transaction lookups find it.
extension AddressReducer {
    /// `observation`'s summary, counting the transactions its complete history leaves out and its lookups prove.
    ///
    /// A stored transaction missing from a complete history is looked up before anything is concluded: found in a
    /// block, it is kept (or confirmed there); found waiting, it stays in the mempool. When the summary counts fewer
    /// confirmed (or mempool) transactions than the history lists plus those proven, the provider left them out of
    /// the summary too, and its balance is short by exactly their amounts: taking it as it stands would announce
    /// `address.tx.confirmed` with a balance that does not hold the payment, and store a balance that the other
    /// providers contradict. The proven transactions are added to the count and the balance then. When the summary
    /// counts more than the history lists (a history paged past a transaction the summary holds, or one read after
    /// an older settled transaction), it is taken as it stands: which of them it counts cannot be told. Totals
    /// received and sent stay as the provider gave them.
    static func countingProven(_ observation: Observation, in state: AddressState) -> AddressSummary {
        var summary = observation.summary
        guard observation.complete, let history = observation.history else { return summary }
        let listed = Set(history.map(\.txid))
        var confirmed: [Int64] = []
        var waiting: [Int64] = []
        for txid in state.txs.keys.sorted() where !listed.contains(txid) {
            guard let tx = state.txs[txid], case .some(.some(let found)) = observation.lookups[txid] else { continue }
            if found.blockHeight != nil {
                confirmed.append(tx.deltaSat)
            } else if tx.blockHeight == nil {
                waiting.append(tx.deltaSat)
            }
        }
        let listedConfirmed = history.filter { $0.blockHeight != nil }.count
        if !confirmed.isEmpty, let count = summary.txCount, count <= listedConfirmed {
            summary.txCount = count + confirmed.count
            summary.balanceSat = summary.balanceSat.map { $0 + confirmed.reduce(0, +) }
        }
        let listedWaiting = history.count - listedConfirmed
        if !waiting.isEmpty, let count = summary.unconfirmedTxCount, count <= listedWaiting {
            summary.unconfirmedTxCount = count + waiting.count
            summary.unconfirmedBalanceSat = summary.unconfirmedBalanceSat.map { $0 + waiting.reduce(0, +) }
        }
        return summary
    }
}

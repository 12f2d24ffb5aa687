import WatcherCore

/// Pushed mempool transactions, applied from the push's own data with no request: the websocket carries the
/// whole transaction, so its effect on the address is known exactly.
extension AddressReducer {
    /// Applies a pushed unconfirmed transaction of the address. A transaction already known changes nothing
    /// (the poll or a scan got there first, or the push repeated). The unconfirmed balance moves by the exact
    /// delta when a summary is known; the block that confirms it is applied by the scan or the next poll, and a
    /// transaction that never confirms is found vanished by the next poll.
    public static func pushed(
        _ state: AddressState,
        txid: String,
        deltaSat: Int64,
        facts: TxFacts? = nil,
        context: Context
    ) -> (AddressState, [NewEvent]) {
        guard state.txs[txid] == nil else { return (state, []) }
        let before = state
        var state = state
        var tx = AddressState.TrackedTx(
            txid: txid,
            blockHeight: nil,
            blockHash: nil,
            deltaSat: deltaSat,
            spends: facts?.outpoints
        )
        tx.facts = facts?.kept
        state.txs[txid] = tx
        if var summary = state.summary {
            summary.unconfirmedBalanceSat = summary.unconfirmedBalanceSat.map { $0 + deltaSat }
            summary.unconfirmedTxCount = summary.unconfirmedTxCount.map { $0 + 1 }
            state.summary = summary
        }
        state.updatedAt = context.now
        var events = [unconfirmed(tx, facts: facts, balance: state.summary?.balanceSat, context: context)]
        events += balanceChanges(events, before: before, after: state, context: context)
        return (state, events)
    }
}

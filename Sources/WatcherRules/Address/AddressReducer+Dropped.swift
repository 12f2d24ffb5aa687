import WatcherCore

/// A mempool transaction that left a node's mempool without a block: replaced (RBF, a double spend) or evicted.
extension AddressReducer {
    /// Forgets the unconfirmed `txid` of the address and announces it gone (`address.tx.replaced`, and its balance
    /// step), with the reason and replacement the providers' answers about the outputs it spent (`spends`) tell.
    /// `followed` holds the address's own transactions that may be the replacement (a replacement that pays the
    /// address too is followed as a transaction of its own: `replacementFollowed`). A transaction unknown, or known
    /// in a block, changes nothing.
    package static func dropped(
        _ state: AddressState,
        txid: String,
        spends: [TxOutpoint: OutputSpend] = [:],
        followed: [AddressTx]? = nil,
        context: Context
    ) -> (AddressState, [NewEvent]) {
        guard let tx = state.txs[txid], tx.blockHeight == nil else { return (state, []) }
        let before = state
        var state = state
        state.txs[txid] = nil
        if var summary = state.summary {
            summary.unconfirmedBalanceSat = summary.unconfirmedBalanceSat.map { $0 - tx.deltaSat }
            summary.unconfirmedTxCount = summary.unconfirmedTxCount.map { max(0, $0 - 1) }
            state.summary = summary
        }
        state.updatedAt = context.now
        let replacement = replacement(of: tx, history: followed, spends: spends)
        remember(replacement, of: txid, in: &state)
        var events = [replaced(tx, replacement, balance: state.summary?.balanceSat, context: context)]
        events += balanceChanges(events, before: before, after: state, context: context)
        return (state, events)
    }
}

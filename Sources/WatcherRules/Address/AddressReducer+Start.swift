import WatcherCore

/// The starting balance of a scanned address on a provider without an address index (a node's UTXO set): the
/// baseline later confirmed steps count from.
extension AddressReducer {
    /// Sets the confirmed balance `confirmedSat` read from the UTXO set at `block` (the stored tip, so every
    /// block already scanned into the state is in it). It announces nothing: it is the baseline, as a first poll's
    /// history before the watch is. What a UTXO set cannot say stays unknown: the totals received and sent and the
    /// transaction count (`nil`). The unconfirmed balance is that of the mempool transactions already known.
    /// A state whose balance is known is returned unchanged.
    public static func started(
        _ state: AddressState,
        confirmedSat: Int64,
        at block: BlockRef,
        context: Context
    ) -> AddressState {
        guard state.summary?.balanceSat == nil else { return state }
        var state = state
        if state.since == nil { state.since = context.entry.from ?? block.height + 1 }
        if state.wallet == nil { state.wallet = context.entry.wallet }
        let pending = state.txs.values.filter { $0.blockHeight == nil }
        state.summary = AddressSummary(
            address: state.address,
            balanceSat: confirmedSat,
            totalReceivedSat: nil,
            totalSentSat: nil,
            txCount: nil,
            unconfirmedBalanceSat: pending.reduce(0) { $0 + $1.deltaSat },
            unconfirmedTxCount: pending.count
        )
        state.updatedAt = context.now
        return state
    }
}

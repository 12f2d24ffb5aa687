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

    /// ``started(_:confirmedSat:at:context:)`` from the unspent outputs behind the balance: an output made at or
    /// above the address's `since` (a wallet's window that reached the address after the payment) by a transaction
    /// the state does not hold is announced as that block's transaction (``scanned(_:_:block:tipHeight:context:)``),
    /// not taken into the baseline, so the address's steps add up to its balance less the baseline. An output in a
    /// block whose hash is not in `hashes` (older than the chain memory) stays in the baseline. A state whose balance
    /// is known is returned unchanged, with no events.
    public static func started(
        _ state: AddressState,
        confirmedSat: Int64,
        outputs: [UTXOBalances.Output],
        at block: BlockRef,
        hashes: [Int: String],
        context: Context
    ) -> (AddressState, [NewEvent]) {
        guard state.summary?.balanceSat == nil else { return (state, []) }
        let since = state.since ?? context.entry.from ?? block.height + 1
        var later: [Int: [String: Int64]] = [:]
        for output in outputs where output.height >= since && output.height <= block.height {
            guard state.txs[output.txid] == nil, hashes[output.height] != nil else { continue }
            later[output.height, default: [:]][output.txid, default: 0] += output.valueSat
        }
        let announced = later.values.flatMap(\.values).reduce(0, +)
        var next = started(state, confirmedSat: confirmedSat - announced, at: block, context: context)
        var events: [NewEvent] = []
        for height in later.keys.sorted() {
            guard let hash = hashes[height], let paid = later[height] else { continue }
            let txs = paid.keys.sorted().map { ScannedTx(txid: $0, deltaSat: paid[$0] ?? 0) }
            let emitted: [NewEvent]
            (next, emitted) = scanned(
                next,
                txs,
                block: BlockRef(height: height, hash: hash),
                tipHeight: block.height,
                context: context
            )
            events += emitted
        }
        return (next, events)
    }
}

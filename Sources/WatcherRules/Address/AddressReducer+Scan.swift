import WatcherCore

/// Block scanning: a block's transactions matched against the followed set and applied straight from the block's
/// own data, with no request per address.
extension AddressReducer {
    /// One transaction of a scanned block that touches the address.
    public struct ScannedTx: Sendable, Hashable {
        /// The txid.
        public var txid: String
        /// Net effect on the address in satoshi.
        public var deltaSat: Int64

        /// Creates one.
        package init(txid: String, deltaSat: Int64) {
            self.txid = txid
            self.deltaSat = deltaSat
        }
    }

    /// Applies the transactions of the main-chain block `block` that touch the address. A transaction already
    /// known in that block changes nothing; a mempool one is confirmed. Balances move by the exact deltas when a
    /// summary is known (a balance is never guessed: without one, only the transactions are announced, and the
    /// low-priority balance fill supplies it later).
    public static func scanned(
        _ state: AddressState,
        _ txs: [ScannedTx],
        block: BlockRef,
        tipHeight: Int,
        context: Context
    ) -> (AddressState, [NewEvent]) {
        let before = state
        var state = state
        if state.since == nil { state.since = context.entry.from ?? block.height }
        if state.wallet == nil { state.wallet = context.entry.wallet }
        var events: [NewEvent] = []
        for item in txs {
            let known = state.txs[item.txid]
            if let known, known.blockHash == block.hash { continue }
            if let known, known.blockHeight != nil {
                events.append(reverted(known, balance: state.summary?.balanceSat, context: context))
            }
            let tx = AddressState.TrackedTx(
                txid: item.txid,
                blockHeight: block.height,
                blockHash: block.hash,
                deltaSat: item.deltaSat,
                spends: known?.spends
            )
            state.txs[item.txid] = tx
            if var summary = state.summary {
                // A transaction moved from another block (its reorg not walked yet) is in the balance already.
                if known?.blockHeight == nil { summary.balanceSat = summary.balanceSat.map { $0 + item.deltaSat } }
                summary.txCount = summary.txCount.map { $0 + (known?.blockHeight == nil ? 1 : 0) }
                if known != nil, known?.blockHeight == nil {
                    summary.unconfirmedBalanceSat = summary.unconfirmedBalanceSat.map { $0 - item.deltaSat }
                    summary.unconfirmedTxCount = summary.unconfirmedTxCount.map { max(0, $0 - 1) }
                }
                if item.deltaSat > 0 { summary.totalReceivedSat = summary.totalReceivedSat.map { $0 + item.deltaSat } }
                if item.deltaSat < 0 { summary.totalSentSat = summary.totalSentSat.map { $0 - item.deltaSat } }
                state.summary = summary
            }
            events.append(confirmed(tx, tipHeight: tipHeight, balance: state.summary?.balanceSat, context: context))
        }
        state.updatedAt = context.now
        events += confirmations(&state, tipHeight: tipHeight, context: context)
        events += balanceChanges(events, before: before, after: state, context: context)
        return (state, events)
    }

    /// Matches a block page's transactions against `followed`: for each followed address touched, its txs and
    /// deltas. Coinbase inputs and non-address outputs never match.
    public static func match(_ transactions: [ChainTransaction], followed: Set<String>) -> [String: [ScannedTx]] {
        var result: [String: [ScannedTx]] = [:]
        for tx in transactions {
            var touched: Set<String> = []
            for endpoint in tx.inputs + tx.outputs {
                if let address = endpoint.address, followed.contains(address) { touched.insert(address) }
            }
            for address in touched.sorted() {
                result[address, default: []].append(ScannedTx(txid: tx.txid, deltaSat: tx.delta(for: address)))
            }
        }
        return result
    }
}

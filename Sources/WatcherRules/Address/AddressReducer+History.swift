import WatcherCore

/// What history a poll must read, decided from the stored state and the fresh summary alone.
extension AddressReducer {
    /// How much history to ask for.
    public enum HistoryRequest: Sendable, Equatable {
        /// The summary did not change and no mempool transaction is pending: no history request.
        case none
        /// The address has no transactions: the history is empty and complete.
        case empty
        /// Ask for up to `limit` transactions, newest first, stopping at `after` (a deeply confirmed known tx).
        case fetch(limit: Int, after: String?)
    }

    /// The smallest page a history request reads.
    public static let minimumHistoryLimit = 50
    /// The most a history request reads; past it a round is incomplete (no drop is concluded) and resumes later.
    public static let maximumHistoryLimit = 10_000

    /// The history request for `summary`, given what is stored.
    ///
    /// The request stops at the newest transaction confirmed deeper than every threshold plus `reorgSafety`
    /// (nothing newer than it can be missed), and its limit covers every transaction the summary says is new, so
    /// 60 payments in one round are all read (paged by the provider) instead of the newest 50.
    public static func historyRequest(
        stored: AddressState?,
        summary: AddressSummary,
        tipHeight: Int?,
        context: Context
    ) -> HistoryRequest {
        let previous = stored?.summary
        // A summary that stands still says nothing of a mempool transaction replaced by one of the same amount (a
        // fee bump from the payer's change): while one is pending, the history is read every round.
        let pending = stored?.txs.values.contains { $0.blockHeight == nil } ?? false
        if let previous, previous == summary, !pending { return .none }
        if summary.txCount == 0, (summary.unconfirmedTxCount ?? 0) == 0 { return .empty }
        let txs = stored?.txs.values.map { $0 } ?? []
        let anchor = historyAnchor(txs, tipHeight: tipHeight, context: context)
        let newer = txs.filter { tx in
            guard let anchorHeight = anchor?.blockHeight else { return true }
            return (tx.blockHeight ?? .max) > anchorHeight
        }
        let newConfirmed = max(0, (summary.txCount ?? 0) - (previous?.txCount ?? 0))
        let expected = newConfirmed + (summary.unconfirmedTxCount ?? 0) + newer.count + 10
        let limit = min(maximumHistoryLimit, max(minimumHistoryLimit, expected))
        return .fetch(limit: limit, after: anchor?.txid)
    }

    /// The next limit after an answer that filled `limit` (it may have been cut short), or `nil` to stop.
    public static func widened(limit: Int) -> Int? {
        limit >= maximumHistoryLimit ? nil : min(maximumHistoryLimit, limit * 4)
    }

    /// Mempool transactions that a complete `history` no longer lists: each is looked up before it is called gone.
    public static func dropCandidates(_ state: AddressState, history: [AddressTx]) -> [String] {
        let seen = Set(history.map(\.txid))
        return state.txs.values.filter { $0.blockHeight == nil && !seen.contains($0.txid) }.map(\.txid).sorted()
    }

    /// The newest settled transaction: a history request stops at it.
    static func historyAnchor(_ txs: [AddressState.TrackedTx], tipHeight: Int?, context: Context)
        -> AddressState.TrackedTx?
    {
        txs.filter { isSettled($0, tipHeight: tipHeight, context: context) }
            .max { ($0.blockHeight ?? 0, $0.txid) < ($1.blockHeight ?? 0, $1.txid) }
    }

    /// Confirmed transactions above the history's anchor that a complete `history` no longer lists: their block
    /// may have been replaced (a reorg the chain walk could not place below them, such as a block whose hash it
    /// never knew). Each is looked up, and its block asked for, before it is reverted.
    public static func confirmedCandidates(
        _ state: AddressState,
        history: [AddressTx],
        tipHeight: Int?,
        context: Context
    ) -> [String] {
        let seen = Set(history.map(\.txid))
        let floor = historyAnchor(Array(state.txs.values), tipHeight: tipHeight, context: context)?.blockHeight
        return state.txs.values.filter { tx in
            guard let height = tx.blockHeight, !seen.contains(tx.txid) else { return false }
            return height > (floor ?? .min)
        }.map(\.txid).sorted()
    }

    /// Mempool transactions missing from a complete history: confirmed after all (the lookup says so), still
    /// waiting, or gone (`address.tx.replaced`).
    static func vanished(
        _ history: [AddressTx],
        from state: inout AddressState,
        observation: Observation,
        context: Context
    ) -> [NewEvent] {
        let seen = Set(history.map(\.txid))
        var events: [NewEvent] = []
        for txid in state.txs.keys.sorted() {
            guard let tx = state.txs[txid], tx.blockHeight == nil, !seen.contains(txid) else { continue }
            switch observation.lookups[txid] {
            case .some(.some(let found)):
                guard let height = found.blockHeight else { continue }
                events += confirm(tx, in: found, height: height, state: &state, observation, context)
            case .some(.none), .none:
                state.txs[txid] = nil
                let replacement = replacement(of: tx, history: history, spends: observation.spends)
                remember(replacement, of: txid, in: &state)
                events.append(
                    replaced(tx, replacement, balance: observation.summary.balanceSat, context: context)
                )
            }
        }
        return events
    }

    /// Confirmed transactions missing from a complete history (`candidates`): still in their block (the
    /// history lagged: kept), moved to another block (reverted, then confirmed there), back in the mempool
    /// (reverted), or unknown to the provider. An unknown one is reverted only when its block is known to be
    /// replaced (the provider's block at its height, or the chain memory's, has another hash), never on the word
    /// of a provider that may not have reached the block yet; it is then gone (`address.tx.replaced`) when the
    /// lookup said so, else unconfirmed until the next poll looks it up.
    static func vanishedConfirmed(
        _ candidates: Set<String>,
        history: [AddressTx],
        from state: inout AddressState,
        observation: Observation,
        context: Context
    ) -> [NewEvent] {
        var events: [NewEvent] = []
        let balance = observation.summary.balanceSat
        for txid in candidates.sorted() {
            guard let tx = state.txs[txid], let height = tx.blockHeight else { continue }
            let lookup = observation.lookups[txid]
            if case .some(.some(let found)) = lookup {
                if found.blockHeight == height, found.blockHash == nil || found.blockHash == tx.blockHash { continue }
                events.append(reverted(tx, balance: balance, context: context))
                var back = AddressState.TrackedTx(txid: txid, blockHeight: nil, blockHash: nil, deltaSat: tx.deltaSat)
                back.spends = tx.spends
                state.txs[txid] = back
                if let newHeight = found.blockHeight {
                    events += confirm(back, in: found, height: newHeight, state: &state, observation, context)
                }
                continue
            }
            guard blockReplaced(tx, history: history, observation: observation, context: context) else { continue }
            events.append(reverted(tx, balance: balance, context: context))
            if case .some(.none) = lookup {
                state.txs[txid] = nil
                let replacement = replacement(of: tx, history: history, spends: observation.spends)
                remember(replacement, of: txid, in: &state)
                events.append(replaced(tx, replacement, balance: balance, context: context))
            } else {
                state.txs[txid] = AddressState.TrackedTx(
                    txid: txid,
                    blockHeight: nil,
                    blockHash: nil,
                    deltaSat: tx.deltaSat,
                    spends: tx.spends
                )
            }
        }
        return events
    }

    /// Whether the block of a confirmed `tx` is known to be replaced: the provider said so
    /// (``Observation/replacedBlocks``), or the chain memory or the history has another block at its height.
    static func blockReplaced(
        _ tx: AddressState.TrackedTx,
        history: [AddressTx],
        observation: Observation,
        context: Context
    ) -> Bool {
        guard let height = tx.blockHeight, let hash = tx.blockHash else { return false }
        if observation.replacedBlocks.contains(hash) { return true }
        if let memory = context.blockHashes[height], memory != hash { return true }
        return history.contains { item in
            guard item.blockHeight == height, let other = item.blockHash ?? context.blockHashes[height] else {
                return false
            }
            return other != hash
        }
    }

    /// Confirms `tx` in the block a lookup found it in.
    static func confirm(
        _ tx: AddressState.TrackedTx,
        in found: ChainTransaction,
        height: Int,
        state: inout AddressState,
        _ observation: Observation,
        _ context: Context
    ) -> [NewEvent] {
        var tx = tx
        tx.blockHeight = height
        tx.blockHash = found.blockHash ?? context.blockHashes[height]
        tx.announced = []
        state.txs[tx.txid] = tx
        return [
            confirmed(tx, tipHeight: observation.tipHeight, balance: observation.summary.balanceSat, context: context)
        ]
    }
}

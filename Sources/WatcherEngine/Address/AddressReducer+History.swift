import WatcherCore

/// What history a poll must read, decided from the stored state and the fresh summary alone.
extension AddressReducer {
    /// How much history to ask for.
    public enum HistoryRequest: Sendable, Equatable {
        /// The summary did not change: no history request.
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
        if let previous, previous == summary { return .none }
        if summary.txCount == 0, (summary.unconfirmedTxCount ?? 0) == 0 { return .empty }
        let txs = stored?.txs.values.map { $0 } ?? []
        let anchor =
            txs
            .filter { isSettled($0, tipHeight: tipHeight, context: context) }
            .max { ($0.blockHeight ?? 0, $0.txid) < ($1.blockHeight ?? 0, $1.txid) }
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
}

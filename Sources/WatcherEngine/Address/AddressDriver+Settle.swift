import WatcherCore

extension AddressDriver {
    /// The summary to commit with `history`: `summary` again, unless the history has a transaction in a block the
    /// address does not hold it in (new, or moved from the mempool or another block). The summary was read before
    /// the history, so a block that reached the provider between the two reads is in the history and not in the
    /// summary's confirmed balance, from which `balanceSat` after a `confirmed` step is counted: the summary is then
    /// read once more, after the history. One request, only in a round that finds a transaction in a new block.
    func settledSummary(
        _ summary: AddressSummary,
        of address: String,
        history: [AddressTx]?,
        stored: AddressState?
    ) async throws
        -> AddressSummary
    {
        guard let history else { return summary }
        let confirms = history.contains { tx in
            guard let hash = tx.blockHash else { return false }
            return stored?.txs[tx.txid]?.blockHash != hash
        }
        guard confirms else { return summary }
        return try await fetchSummaries([address])[address] ?? summary
    }
}

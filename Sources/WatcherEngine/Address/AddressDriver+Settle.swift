import WatcherCore

extension AddressDriver {
    /// The summary to commit with `history`: `summary` again, unless the history puts a transaction the address
    /// already holds into a block it did not hold it in. The summary was read before the history, so a block that
    /// reached the provider between the two reads is in the history and not in the summary's confirmed balance,
    /// from which `balanceSat` after a `confirmed` step is counted: the summary is then read once more, after the
    /// history. One request, only in a round that confirms a followed transaction.
    func settledSummary(
        _ summary: AddressSummary,
        of address: String,
        history: [AddressTx]?,
        stored: AddressState?
    ) async throws
        -> AddressSummary
    {
        guard let history, let stored else { return summary }
        let confirms = history.contains { tx in
            guard let hash = tx.blockHash, let held = stored.txs[tx.txid] else { return false }
            return held.blockHash != hash
        }
        guard confirms else { return summary }
        return try await fetchSummaries([address])[address] ?? summary
    }
}

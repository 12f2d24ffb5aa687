import WatcherCore
import WatcherRules

/// The address changed between every summary and the history read after it: nothing consistent to commit this round.
struct AddressKeptChanging: Error, CustomStringConvertible {
    var address: String
    var reads: Int

    var description: String {
        "address \(address) changed during each of \(reads) reads of its summary and history; read again next round"
    }
}

extension AddressDriver {
    /// A summary and the history read with it, to be committed together.
    struct SettledRead: Sendable {
        var summary: AddressSummary
        /// `nil` when the summary called for none.
        var history: [AddressTx]?
        var complete = false
        /// The provider that answered the history.
        var source: String?
    }

    /// Most summary-and-history reads for one address in one round.
    static let maxSettleReads = 3

    /// The history `summary` calls for (``AddressReducer/historyRequest(stored:summary:tipHeight:context:)``), with
    /// the summary it is to be committed with.
    ///
    /// `summary` was read before the history. When the history holds a transaction in a block the address does not
    /// hold it in (new, or moved from the mempool or another block), the summary is read again after it: a block
    /// that reached the provider between the two reads is in the history and not in the first summary's confirmed
    /// balance, from which `balanceSat` after a `confirmed` step is counted. If the summary read again is the same,
    /// the history (read between the two) holds what it counts. If it moved (a block or a mempool transaction came
    /// in the meantime), the history may be older than it, and committing the two together would announce a
    /// balance the history does not explain and leave the newer transactions unread while the summary stands
    /// still; so the history is read again against the newer summary, at most ``maxSettleReads`` times, then
    /// ``AddressKeptChanging`` is thrown (the round is retried). Costs one summary in a round that finds a
    /// confirmation, and a history and a summary more only when the address changed meanwhile.
    func settledRead(
        _ address: String,
        summary first: AddressSummary,
        stored: AddressState?,
        tipHeight: Int?,
        context reducer: AddressReducer.Context
    ) async throws -> SettledRead {
        var summary = first
        for _ in 0..<Self.maxSettleReads {
            var read = SettledRead(summary: summary)
            switch AddressReducer.historyRequest(
                stored: stored,
                summary: summary,
                tipHeight: tipHeight,
                context: reducer
            )
            {
            case .none:
                return read
            case .empty:
                read.history = []
                read.complete = true
                return read
            case .fetch(let limit, let after):
                (read.history, read.complete, read.source) = try await fetchSourcedHistory(
                    address,
                    limit: limit,
                    after: after
                )
            }
            guard let history = read.history, AddressReducer.confirmsAnew(history, stored: stored) else { return read }
            let again = try await fetchSummaries([address])[address] ?? summary
            read.summary = again
            if again == summary { return read }
            summary = again
        }
        throw AddressKeptChanging(address: address, reads: Self.maxSettleReads)
    }
}

import Logging
import WatcherCore
import WatcherStorage

/// Follows the addresses of one chain: a cheap summary probe first (batched where the provider can), and the
/// history only for addresses whose summary changed.
struct AddressTracker: Sendable {
    let chain: String
    let providers: [String]
    let context: EngineContext
    /// Transactions fetched per history request.
    var historyLimit = 50

    /// One round over every address in `book`.
    func poll(_ book: AddressBook) async throws {
        guard !book.entries.isEmpty else { return }
        let chain = self.chain
        // Confirmations are computed from the tip: a baseline without one would mistake old transactions for new.
        var tipHint: Int?
        if try context.store.read({ try $0.tip(chain: chain) }) == nil {
            tipHint = try await context.ask(providers, .tip) { try await $0.tip() }.height
        }
        let summaries = try await fetchSummaries(book.entries.keys.sorted())
        for (address, summary) in summaries.sorted(by: { $0.key < $1.key }) {
            guard let entry = book.entries[address] else { continue }
            try await reconcile(entry, summary, tipHint: tipHint)
        }
    }

    /// Summaries of `addresses`: one request per batch when the chosen provider batches, else one per address.
    func fetchSummaries(_ addresses: [String]) async throws -> [String: AddressSummary] {
        var result: [String: AddressSummary] = [:]
        var remaining = addresses[...]
        while !remaining.isEmpty {
            let chunk = Array(remaining.prefix(100))
            let (summaries, consumed) = try await context.ask(providers, .refresh) { provider in
                if provider.capabilities.contains(.addressBatch) {
                    return (try await provider.addresses(chunk), chunk.count)
                }
                return ([try await provider.address(chunk[0])], 1)
            }
            for summary in summaries { result[summary.address] = summary }
            remaining = remaining.dropFirst(consumed)
        }
        return result
    }

    /// Compares one summary with the stored state and commits what changed.
    func reconcile(_ entry: AddressBook.Entry, _ summary: AddressSummary, tipHint: Int? = nil) async throws {
        let chain = self.chain
        let stored = try context.store.read { try $0.addressState(chain: chain, address: entry.address) }
        let baseline = stored?.summary == nil
        let changed = baseline || stored?.summary != summary
        var history: [AddressTx]?
        var complete = false
        if changed, (summary.txCount ?? 1) + (summary.unconfirmedTxCount ?? 0) > 0 {
            let limit = historyLimit
            let address = entry.address
            let fetched = try await context.ask(providers, baseline ? .backfill : .refresh) { provider in
                try await provider.addressTransactions(address, limit: limit, after: nil)
            }
            history = fetched
            complete = fetched.count < limit || fetched.last?.blockHeight != nil
        } else if changed {
            history = []
            complete = true
        }
        let builder = context.events
        let observed = history
        let isComplete = complete
        try await context.commit { txn in
            var state =
                try txn.addressState(chain: chain, address: entry.address)
                ?? AddressState(chain: chain, address: entry.address)
            let headers = try txn.recentHeaders(chain: chain, limit: .max)
            let subject = AddressEvents.Subject(
                chain: chain,
                entry: entry,
                builder: builder,
                prices: try txn.prices(),
                blockHashes: Dictionary(headers.map { ($0.height, $0.hash) }) { first, _ in first }
            )
            let tipHeight = try txn.tip(chain: chain)?.height ?? tipHint
            let events = AddressEvents.apply(
                &state,
                summary: summary,
                history: observed,
                complete: isComplete,
                tipHeight: tipHeight,
                subject: subject
            )
            state.updatedAt = builder.now()
            try txn.putAddressState(state)
            // The first observation is a baseline: history is recorded, nothing is announced.
            return baseline ? [] : events
        }
    }
}

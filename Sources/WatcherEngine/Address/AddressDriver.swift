import Logging
import WatcherCore
import WatcherStorage

/// The I/O around ``AddressReducer`` for the addresses of one chain: a cheap summary probe first (batched where
/// the provider can), the history only for addresses whose summary changed (paged until it reaches what is
/// known), a lookup of mempool transactions that vanished, then one commit per address.
struct AddressDriver: Sendable {
    let chain: String
    let providers: [String]
    let context: EngineContext
    /// The priority of its requests (`.backfill` for the balance fill of scanned watches).
    var priority: RequestPriority = .refresh
    /// Only addresses whose balance is not known (never observed, or reset by a reorg): the fill of a scanned
    /// watch, whose payments come from the blocks.
    var fillOnly = false

    /// Most vanished mempool transactions looked up one by one in a round; the rest wait for the next.
    static let maxLookups = 20

    /// One round over every address in `book`.
    func poll(_ book: AddressBook) async throws {
        var book = book
        let chain = self.chain
        if fillOnly {
            let known = try context.store.read { txn in
                Set(try txn.addressStates(chain: chain).filter { $0.summary?.txCount != nil }.map(\.address))
            }
            book.entries = book.entries.filter { !known.contains($0.key) }
        }
        guard !book.entries.isEmpty else { return }
        // Confirmations are computed from the tip: a baseline without one would mistake new transactions for old.
        var tipHeight = try context.store.read { try $0.tip(chain: chain) }?.height
        if tipHeight == nil {
            tipHeight = try await context.tip(providers).height
        }
        let summaries = try await fetchSummaries(book.entries.keys.sorted())
        for (address, summary) in summaries.sorted(by: { $0.key < $1.key }) {
            guard let entry = book.entries[address] else { continue }
            try await reconcile(entry, summary, tipHint: tipHeight)
        }
    }

    /// Summaries of `addresses`: one request per batch when the chosen provider batches, else one per address.
    func fetchSummaries(_ addresses: [String]) async throws -> [String: AddressSummary] {
        var result: [String: AddressSummary] = [:]
        var remaining = addresses[...]
        while !remaining.isEmpty {
            let chunk = Array(remaining.prefix(100))
            let (summaries, consumed) = try await context.ask(providers, priority) { provider in
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

    /// Reads what the summary calls for, then commits the reducer's answer.
    func reconcile(_ entry: AddressBook.Entry, _ summary: AddressSummary, tipHint: Int?) async throws {
        let chain = self.chain
        let (stored, storedTip, hashes) = try context.store.read { txn in
            (
                try txn.addressState(chain: chain, address: entry.address),
                try txn.tip(chain: chain)?.height,
                try txn.blockHashes(chain: chain)
            )
        }
        let tipHeight = storedTip ?? tipHint
        let now = context.events.now()
        let reducerContext = AddressReducer.Context(chain: chain, entry: entry, blockHashes: hashes, now: now)
        var history: [AddressTx]?
        var complete = false
        switch AddressReducer.historyRequest(
            stored: stored,
            summary: summary,
            tipHeight: tipHeight,
            context: reducerContext
        ) {
        case .none:
            break
        case .empty:
            history = []
            complete = true
        case .fetch(let limit, let after):
            (history, complete) = try await fetchHistory(entry.address, limit: limit, after: after)
        }
        var lookups: [String: ChainTransaction?] = [:]
        if let history, complete, let stored {
            for txid in AddressReducer.dropCandidates(stored, history: history).prefix(Self.maxLookups) {
                lookups[txid] = try await lookUp(txid)
            }
        }
        let observation = AddressReducer.Observation(
            summary: summary,
            history: history,
            complete: complete,
            tipHeight: tipHeight,
            lookups: lookups
        )
        try await context.commit { txn in
            let state =
                try txn.addressState(chain: chain, address: entry.address)
                ?? AddressState(chain: chain, address: entry.address)
            var withPrices = reducerContext
            withPrices.prices = try txn.prices()
            let (next, events) = AddressReducer.observe(state, observation, context: withPrices)
            try txn.putAddressState(next)
            return events
        }
    }

    /// The history newest first, widened while an answer fills the limit (it may have been cut short).
    /// - Returns: the transactions and whether they are all that is newer than `after` (or all there is).
    func fetchHistory(_ address: String, limit: Int, after: String?) async throws -> ([AddressTx], Bool) {
        var limit = limit
        while true {
            let current = limit
            let fetched = try await context.ask(providers, priority) { provider in
                try await provider.addressTransactions(address, limit: current, after: after)
            }
            if fetched.count < current { return (fetched, true) }
            guard let wider = AddressReducer.widened(limit: current) else { return (fetched, false) }
            limit = wider
        }
    }

    /// Whether a mempool tx that left the history confirmed, still waits, or is gone (`nil`). A provider without
    /// transaction lookups cannot say: the tx is taken as gone, as before lookups existed.
    func lookUp(_ txid: String) async throws -> ChainTransaction?? {
        let capable = providers.filter { context.chainProviders[$0]?.capabilities.contains(.transaction) ?? false }
        guard !capable.isEmpty else { return .none }
        do {
            return .some(try await context.ask(capable, .refresh) { try await $0.transaction(txid) })
        } catch ProviderError.notFound {
            return .some(nil)
        } catch ProviderError.unsupported {
            return .none
        }
    }
}

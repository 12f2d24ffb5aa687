import Logging
import Synchronization
import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// The I/O around ``AddressReducer`` for the addresses of one chain: a cheap summary probe first (batched where
/// the provider can), the history only for addresses whose summary changed (paged until it reaches what is
/// known), a lookup of mempool transactions that vanished, then one commit per address.
struct AddressDriver: Sendable {
    let chain: String
    var providers: [String]
    let context: EngineContext
    /// The priority of its requests (`.backfill` for the balance fill of scanned watches).
    var priority: RequestPriority = .refresh
    /// Which addresses of a book a round reads.
    var scope = Scope.all
    /// Whether a reading a new block dropped is read again in the same round: where no block starts the next round
    /// (the balance fill of a scanned watch, rounds the push starts). A polled watch's next round comes with the block.
    var rereadsDropped = false

    /// Which addresses of a book a round reads.
    enum Scope: Sendable {
        /// Every one (a polled watch).
        case all
        /// Only those whose balance is not known (never observed, or reset by a reorg): the fill of a scanned
        /// watch, whose payments come from the blocks.
        case unknownBalances
    }
    /// How claimed confirmations are read: the provider in charge alone, or held by `agree` providers.
    var reads = Reads.single

    /// Most vanished mempool transactions looked up one by one in a round; the rest wait for the next.
    static let maxLookups = 20

    /// One round over every address in `book`, up to the providers' concurrency at a time: batches of 100 where
    /// the first provider batches, one address per request otherwise. An address that fails does not hold up the
    /// others; the round throws the first failure after the rest were done.
    func poll(_ book: AddressBook) async throws {
        var book = book
        let chain = self.chain
        if scope == .unknownBalances {
            let known = try context.store.read { txn in
                Set(try txn.addressStates(chain: chain).filter { $0.summary?.txCount != nil }.map(\.address))
            }
            book.entries = book.entries.filter { !known.contains($0.key) }
        }
        guard !book.entries.isEmpty else { return }
        // Confirmations are computed from the tip: a baseline without one would mistake new transactions for old.
        var round = try context.store.read { txn in
            Round(tipHeight: try txn.tip(chain: chain)?.height, hashes: try txn.blockHashes(chain: chain))
        }
        if round.tipHeight == nil {
            round.tipHeight = try await context.tip(providers).height
        }
        let batches = providers.first.flatMap { context.chainProviders[$0] }?.capabilities.contains(.addressBatch)
        let addresses = book.entries.keys.sorted()
        let work =
            batches == true
            ? stride(from: 0, to: addresses.count, by: 100).map {
                Array(addresses[$0..<min($0 + 100, addresses.count)])
            } : addresses.map { [$0] }
        let width = await context.scheduler.concurrency(of: providers)
        let entries = book.entries
        let start = round
        try await Self.forEach(work, width: width) { chunk in
            // Where no block starts the next round (`rereadsDropped`), an address whose reading a block dropped is
            // read again at once, up to a few times while blocks keep coming.
            var pending = chunk
            for _ in 0..<(rereadsDropped ? Self.readsPerRound : 1) where !pending.isEmpty {
                let tipBefore = try context.store.read { try $0.tip(chain: chain)?.hash }
                let summaries = try await fetchSummaries(pending)
                var dropped: [String] = []
                for address in pending {
                    guard let entry = entries[address], let summary = summaries[address] else { continue }
                    guard try await reconcile(entry, summary, round: start, tipBefore: tipBefore) else {
                        dropped.append(address)
                        continue
                    }
                }
                pending = dropped
            }
        }
    }

    /// How many times a round reads an address whose reading blocks keep dropping; after that, the next round.
    static let readsPerRound = 3

    /// What a round reads once: the tip it starts from and the chain's block hashes.
    struct Round: Sendable {
        var tipHeight: Int?
        var hashes: [Int: String]
    }

    /// Runs `body` for every item, `width` at a time; the first failure is thrown once every item was tried (a
    /// cancellation stops at once).
    static func forEach<T: Sendable>(
        _ items: [T],
        width: Int,
        _ body: @escaping @Sendable (T) async throws -> Void
    ) async throws {
        var failure: (any Error)?
        await withTaskGroup(of: (any Error)?.self) { group in
            var pending = items.makeIterator()
            func start() -> Bool {
                guard failure as? CancellationError == nil, !Task.isCancelled, let item = pending.next() else {
                    return false
                }
                group.addTask {
                    do {
                        try await body(item)
                        return nil
                    } catch {
                        return error
                    }
                }
                return true
            }
            for _ in 0..<max(1, width) where !start() { break }
            while let result = await group.next() {
                if let result, failure == nil || result is CancellationError { failure = result }
                _ = start()
            }
        }
        if let failure { throw failure }
        // Cancelled before every item ran: the items left out were not answered, and the caller must not take them
        // for a provider's omission.
        try Task.checkCancellation()
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
    /// - Parameter tipBefore: the stored tip's hash before `summary` was asked. When a block was committed since
    ///   (and possibly scanned into this address's state), the summary may predate it: the observation is
    ///   dropped rather than allowed to overwrite newer state: read again in this round where `rereadsDropped`,
    ///   else by the next round, which that block starts.
    /// - Returns: `false` when the observation was dropped so.
    @discardableResult
    func reconcile(
        _ entry: AddressBook.Entry,
        _ summary: AddressSummary,
        round: Round,
        tipBefore: String?
    ) async throws -> Bool {
        let chain = self.chain
        let (stored, storedTip, hashes) = try context.store.read { txn in
            let tip = try txn.tip(chain: chain)?.height
            return (
                try txn.addressState(chain: chain, address: entry.address),
                tip,
                // A new block since the round began: its hash must be known too.
                tip == round.tipHeight ? round.hashes : try txn.blockHashes(chain: chain)
            )
        }
        let tipHeight = storedTip ?? round.tipHeight
        let now = context.events.now()
        let reducerContext = AddressReducer.Context(chain: chain, entry: entry, blockHashes: hashes, now: now)
        let read = try await settledRead(
            entry.address,
            summary: summary,
            stored: stored,
            tipHeight: tipHeight,
            context: reducerContext
        )
        let (summary, complete, source) = (read.summary, read.complete, read.source)
        var history = read.history
        if let fetched = history { history = try await withUnconfirmedInputs(fetched, stored: stored) }
        var lookups: [String: ChainTransaction?] = [:]
        var replacedBlocks: Set<String> = []
        var spends: [TxOutpoint: OutputSpend] = [:]
        if let history, complete, let stored {
            for txid in AddressReducer.dropCandidates(stored, history: history).prefix(Self.maxLookups) {
                lookups[txid] = try await lookUp(txid)
            }
            let confirmed = AddressReducer.confirmedCandidates(
                stored,
                history: history,
                tipHeight: tipHeight,
                context: reducerContext
            )
            for txid in confirmed.prefix(Self.maxLookups) {
                lookups[txid] = try await lookUp(txid)
                // Found somewhere, the lookup says where; unknown, only the block's replacement is proof.
                if case .some(.some) = lookups[txid] { continue }
                guard let tx = stored.txs[txid], let height = tx.blockHeight, let hash = tx.blockHash else { continue }
                if try await blockReplaced(height: height, hash: hash) { replacedBlocks.insert(hash) }
            }
            spends = try await spendAnswers(
                stored,
                history: history,
                lookups: lookups,
                tipHeight: tipHeight,
                context: reducerContext
            )
        }
        var trust: VerifiedHistory?
        if let verifier = reads.verifier(providers, context: context, priority: priority), let fetched = history {
            let verified = try await verifier.verify(
                fetched,
                lookups: lookups,
                source: source,
                stored: stored,
                context: reducerContext,
                tipHeight: tipHeight
            )
            (history, lookups, trust) = (verified.history, verified.lookups, verified)
        }
        let observation = AddressReducer.Observation(
            summary: summary,
            history: history,
            complete: complete,
            tipHeight: tipHeight,
            lookups: lookups,
            replacedBlocks: replacedBlocks,
            spends: spends
        )
        let logger = context.logger
        let checked = trust
        let committed = Mutex(true)
        try await context.commit { txn in
            guard try txn.tip(chain: chain)?.hash == tipBefore else {
                logger.debug(
                    "address observation dropped: a block arrived meanwhile",
                    metadata: ["address": "\(entry.address)"]
                )
                committed.withLock { $0 = false }
                return []
            }
            let state =
                try txn.addressState(chain: chain, address: entry.address)
                ?? AddressState(chain: chain, address: entry.address)
            var withPrices = reducerContext
            withPrices.prices = try txn.prices()
            var (next, events) = AddressReducer.observe(state, observation, context: withPrices)
            if let trust = checked {
                // A withheld confirmation is read again next round, even when the summary stands still.
                if !trust.withheld.isEmpty { next.summary?.txCount = nil }
                trust.stamp(&next)
                events = trust.decorate(events)
            }
            try txn.putAddressState(next)
            return events
        }
        return committed.withLock { $0 }
    }

    /// The history newest first, widened while an answer fills the limit (it may have been cut short).
    /// - Returns: the transactions and whether they are all that is newer than `after` (or all there is).
    func fetchHistory(_ address: String, limit: Int, after: String?) async throws -> ([AddressTx], Bool) {
        let (history, complete, _) = try await fetchSourcedHistory(address, limit: limit, after: after)
        return (history, complete)
    }

    /// ``fetchHistory(_:limit:after:)`` with the id of the provider that answered (the claimant of its
    /// confirmations when `agree` is above 1).
    func fetchSourcedHistory(_ address: String, limit: Int, after: String?) async throws
        -> ([AddressTx], Bool, String)
    {
        var limit = limit
        while true {
            let current = limit
            let (source, fetched) = try await context.ask(providers, priority) { provider in
                (provider.id, try await provider.addressTransactions(address, limit: current, after: after))
            }
            if fetched.count < current { return (fetched, true, source) }
            guard let wider = AddressReducer.widened(limit: current) else { return (fetched, false, source) }
            limit = wider
        }
    }

    /// Whether the provider has another block than `hash` at `height`. A provider that has not reached `height`
    /// says nothing: it may lag, and the block may still stand.
    func blockReplaced(height: Int, hash: String) async throws -> Bool {
        do {
            let header = try await context.ask(providers, .refresh) { try await $0.block(.height(height)) }
            return header.hash != hash
        } catch ProviderError.notFound {
            return false
        }
    }

    /// Whether a mempool tx that left the history confirmed, still waits, or is gone (`nil`). A provider without
    /// transaction lookups cannot say: the tx is taken as gone, as before lookups existed.
    func lookUp(_ txid: String) async throws -> ChainTransaction?? {
        let capable = context.providers(providers, serving: .transaction)
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

import Logging
import WatcherCore
import WatcherStorage

/// The I/O around ``ChainSync`` and ``ChainReducer``: asks the tip, feeds the walk the headers it wants, and
/// commits the new chain memory, the block events, and every followed transaction's reverts and confirmations in
/// one write transaction.
struct ChainDriver: Sendable {
    let chain: String
    let watch: String
    let providers: [String]
    /// Providers that serve headers (none: tip only).
    let headerProviders: [String]
    let context: EngineContext
    let maxBackfill: Int
    let announce: Bool
    /// The followed addresses, read at each round.
    let book: @Sendable () throws -> AddressBook
    /// The chain's `tx` watches.
    let txWatches: [WatchConfig]

    /// Most extra headers fetched after a reorg to settle which followed transactions really moved.
    static let maxSettleFetches = 100

    func poll() async throws {
        let tip = try await context.ask(providers, .tip) { try await $0.tip() }
        let chain = self.chain
        let memory = try context.store.read { try ChainMemory.load($0, chain: chain) }
        var sync = ChainSync(
            memory: memory,
            tip: tip,
            maxBackfill: maxBackfill,
            fetchesHeaders: !headerProviders.isEmpty
        )
        while case .header(let height) = sync.next() {
            let priority: RequestPriority = height == tip.height ? .tip : .backfill
            try sync.receive(try await context.ask(headerProviders, priority) { try await $0.block(.height(height)) })
        }
        let outcome = sync.outcome
        guard !outcome.unchanged else { return }
        if outcome.skipped > 0 {
            context.logger.notice(
                "missed more blocks than maxBackfill; announcing the newest only",
                metadata: ["chain": "\(chain)", "skipped": "\(outcome.skipped)", "maxBackfill": "\(maxBackfill)"]
            )
        }
        var newChain = outcome.learned
        for header in outcome.headers { newChain[header.height] = header.hash }
        if let fork = outcome.fork, outcome.beyondMemory {
            context.logger.error(
                "reorg deeper than the remembered chain; the fork is at or below the reported height",
                metadata: ["chain": "\(chain)", "forkHeight": "\(fork)"]
            )
        }
        // Above the fork, or above the old tip without a reorg: an address poll may have recorded a transaction in
        // a block the walk never saw (a provider ahead of the tip's), and that block may be gone already.
        let floor = ChainReducer.revertFloor(memory, outcome)
        if let floor { try await settle(fork: floor, tipHeight: tip.height, into: &newChain) }
        try await commit(memory: memory, outcome: outcome, newChain: newChain, floor: floor)
    }

    /// Fetches the new chain's hash at every height above the fork where a followed transaction was confirmed and
    /// the walk did not learn it, so a transaction is reverted only if its block really left the main chain.
    func settle(fork: Int, tipHeight: Int, into newChain: inout [Int: String]) async throws {
        let chain = self.chain
        let watchIDs = txWatches.map(\.id)
        let heights = try context.store.read { txn in
            var heights = Set<Int>()
            for state in try txn.addressStates(chain: chain) {
                heights.formUnion(state.txs.values.compactMap(\.blockHeight))
            }
            for id in watchIDs {
                if let height = try txn.watchState(TxReducer.State.self, watch: id)?.blockHeight {
                    heights.insert(height)
                }
            }
            return heights
        }
        let wanted = heights.filter { $0 > fork && $0 <= tipHeight && newChain[$0] == nil }.sorted(by: >)
        for height in wanted.prefix(headerProviders.isEmpty ? 0 : Self.maxSettleFetches) {
            let header = try await context.ask(headerProviders, .backfill) { try await $0.block(.height(height)) }
            newChain[header.height] = header.hash
        }
    }

    func commit(memory: ChainMemory, outcome: ChainSync.Outcome, newChain: [Int: String], floor: Int?) async throws {
        let chain = self.chain
        let settings = ChainReducer.Settings(
            chain: chain,
            watch: watch,
            announce: announce,
            keepHeaders: context.keepHeaders
        )
        let book = try self.book()
        let txWatches = self.txWatches
        let now = context.events.now()
        try await context.commit { txn in
            let (next, blockEvents) = ChainReducer.reduce(memory, outcome, settings: settings, now: now)
            try next.save(txn, chain: chain, replacing: memory)
            var events = blockEvents
            let tipHeight = outcome.tip.height
            let prices = try txn.prices()
            for state in try txn.addressStates(chain: chain) {
                guard let entry = book.entries[state.address] else { continue }
                let address = AddressReducer.Context(
                    chain: chain,
                    entry: entry,
                    prices: prices,
                    blockHashes: next.hashes,
                    now: now
                )
                var updated = state
                if let fork = floor {
                    let (reverted, emitted) = AddressReducer.revert(
                        updated,
                        fork: fork,
                        newChain: newChain,
                        context: address
                    )
                    updated = reverted
                    events += emitted
                }
                let (confirmed, crossed) = AddressReducer.tip(updated, height: tipHeight, context: address)
                events += crossed
                if confirmed != state { try txn.putAddressState(confirmed) }
            }
            for watch in txWatches {
                guard let txid = watch.txid, let state = try txn.watchState(TxReducer.State.self, watch: watch.id)
                else { continue }
                let tx = TxReducer.Context(
                    chain: chain,
                    watch: watch.id,
                    txid: txid,
                    thresholds: watch.confirmations,
                    reorgSafety: watch.reorgSafety,
                    now: now
                )
                var updated = state
                if let fork = floor {
                    let (reverted, emitted) = TxReducer.revert(updated, fork: fork, newChain: newChain, context: tx)
                    updated = reverted
                    events += emitted
                }
                let (confirmed, crossed) = TxReducer.tip(updated, height: tipHeight, context: tx)
                events += crossed
                if confirmed != state { try txn.putWatchState(confirmed, watch: watch.id) }
            }
            return events
        }
    }
}

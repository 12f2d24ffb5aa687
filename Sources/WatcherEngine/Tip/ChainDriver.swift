import Logging
import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherScheduler
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
    /// The chain's `wallet` watches.
    var wallets = WalletBook()
    /// Block scanning, when some `address` watches (or the CLI's accounts) are scanned.
    let scan: JobPlan.Scan?
    /// Rung after each new tip.
    var wakeup: BlockWakeup?
    /// How the tip is read: one provider's word, or the tip `agree` providers share.
    var tips = TipReader.first

    /// What its blocks are matched against.
    var targets: ScanTargets { ScanTargets(chain: chain, context: context, book: book, wallets: wallets, scan: scan) }

    /// Most extra headers fetched after a reorg to settle which followed transactions really moved.
    static let maxSettleFetches = 100
    /// Most missed blocks scanned after downtime; beyond, the balance fill finds what they paid.
    static let scanBackfill = 100

    func poll() async throws {
        let chain = self.chain
        let memory = try context.store.read { try ChainMemory.load($0, chain: chain) }
        guard let tip = try await tips.tip(providers, memory: memory, context: context) else { return }
        let followed = try targets.scannedAddresses()
        let walletScan = try targets.walletScan()
        // A scanned chain reads every new block, not only the announced ones: a payment can be in any of them.
        var sync = ChainSync(
            memory: memory,
            tip: tip,
            maxBackfill: followed.isEmpty && walletScan == nil ? maxBackfill : max(maxBackfill, Self.scanBackfill),
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
        // The tip a fresh store starts at belongs to every watch's baseline (their starting balances, read at it,
        // hold its payments already): only the blocks after it are scanned.
        let (scanned, grown) =
            memory.tip == nil ? ([], nil) : try await scanBlocks(outcome, followed: followed, wallets: walletScan)
        try await commit(
            memory: memory,
            outcome: outcome,
            newChain: newChain,
            floor: floor,
            scanned: scanned,
            derived: grown?.derived ?? [:]
        )
        if !outcome.headers.isEmpty || outcome.fork != nil {
            // The orphaned blocks come lowest first.
            let replaced = outcome.fork.map { _ in outcome.orphaned.last?.height ?? tip.height }
            wakeup?.notify(replaced: replaced)
            context.scheduler.noteBlock(chain: chain)
        }
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
}

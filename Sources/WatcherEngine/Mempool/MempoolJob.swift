import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// The mempool job of a scanned chain whose provider has ``ChainCapabilities/mempool`` (a node): each round reads
/// the mempool's txids and the transactions not read before, in batches, and matches them against the scanned
/// addresses and the wallets' script index in memory, as a block is matched, so the requests never grow with the
/// followed addresses or wallets. A push (ZMQ `sequence` `A`) names a new transaction: that round reads it alone,
/// and the whole list still once per interval (the push is a hint; the list is the truth).
struct MempoolJob: Sendable {
    let chain: String
    /// The chain job's providers (those that can tell who spends an output name a gone transaction's replacement).
    let providers: [String]
    let context: EngineContext
    /// What the mempool's transactions are matched against, as a block's are.
    let targets: ScanTargets
    /// The txids read, in memory (``MempoolRecall``).
    let memory: Locked<MempoolRecall>
    /// The push connection's state, when the chain has one: the txids it named.
    let push: PushState?
    /// How often the whole list is read.
    let every: Duration

    /// The scanning providers that read the mempool.
    var mempoolProviders: [String] {
        context.providers(targets.scan?.providers ?? [], serving: .mempool)
    }

    /// One round: the whole list when due (or when the push asks), else the pushed txids.
    func round() async throws {
        let providers = mempoolProviders
        guard !providers.isEmpty else { return }
        let pushed = push?.takeMempool() ?? (txids: [], reconcile: false)
        let now = context.time.elapsed
        let followed = try targets.scannedAddresses()
        let walletScan = try targets.walletScan()
        guard !followed.isEmpty || walletScan != nil else { return }
        if pushed.reconcile || memory.withLock({ $0.fullDue(now: now, every: every) }) || pushed.txids.isEmpty {
            let txids = try await context.ask(providers, .tip) { try await $0.mempoolTxids() }
            let known = memory.withLock { $0.known }
            let fresh = txids.filter { !known.contains($0) }
            try await readMempool(fresh, providers: providers, followed: followed, wallets: walletScan)
            memory.withLock { $0.replace(current: Set(txids), at: now) }
            try await dropGone(current: Set(txids), followed: followed)
        } else {
            let known = memory.withLock { $0.known }
            var seen = Set<String>()
            let fresh = pushed.txids.filter { !known.contains($0) && seen.insert($0).inserted }
            try await readMempool(fresh, providers: providers, followed: followed, wallets: walletScan)
        }
    }

    /// Reads `txids` in batches, matches and commits each batch, and remembers each batch read once committed. A
    /// round with more than one batch (the first, with the whole mempool to read) asks at the priority of
    /// refreshes, so the block scan goes first.
    private func readMempool(
        _ txids: [String],
        providers: [String],
        followed: Set<String>,
        wallets walletScan: ScanTargets.WalletScan?
    ) async throws {
        var walletScan = walletScan
        let batch = providers.compactMap { context.chainProviders[$0]?.mempoolBatch }.min() ?? 50
        let chainProviders = context.chainProviders
        let priority: RequestPriority = txids.count > batch ? .refresh : .tip
        for start in stride(from: 0, to: txids.count, by: max(1, batch)) {
            let chunk = Array(txids[start..<min(txids.count, start + max(1, batch))])
            let read = try await context.scheduler.perform(
                on: providers,
                priority: priority,
                budget: context.requestBudget,
                cost: { chainProviders[$0]?.requestsPerMempoolRead ?? 1 }
            ) { id in
                guard let provider = chainProviders[id] else {
                    throw ProviderError.unsupported(provider: id, operation: "mempool")
                }
                return try await provider.mempoolTransactions(chunk)
            }
            let transactions = read.map(\.transaction)
            var matched = MempoolMatch(
                addresses: followed.isEmpty ? [:] : AddressReducer.match(transactions, followed: followed),
                facts: Dictionary(read.map { ($0.transaction.txid, $0.facts) }) { first, _ in first }
            )
            if var current = walletScan {
                matched.wallet = try targets.matchWallets(transactions.map(WalletBlockScan.matchable), &current)
                walletScan = current
            }
            // A replacement of a followed transaction retracts it in the same commit.
            let conflicts = try self.conflicts(read, followed: followed)
            if !matched.isEmpty || !conflicts.isEmpty {
                try await commitMempool(matched, derived: walletScan?.derived ?? [:], conflicts: conflicts)
            }
            memory.withLock { $0.add(chunk) }
        }
    }
}

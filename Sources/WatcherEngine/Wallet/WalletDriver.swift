import Foundation
import Logging
import Synchronization
import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// The I/O around one wallet's window: prepares it (the first window derived and indexed), checks the history of
/// the addresses not checked yet (the initial sync: each branch from index 0 until `gap` consecutive unused
/// addresses, then every address the window grows by), and, for a polled wallet, observes every address of the
/// window each round. Each pass commits the wallet's addresses together, with the window grown in the same
/// transaction; a pass that grew the window is followed at once by one over the addresses it added.
struct WalletDriver: Sendable {
    let chain: String
    let wallet: WalletBook.Wallet
    let book: WalletBook
    var providers: [String]
    let context: EngineContext
    /// What its rounds do (the watch's strategy and the providers decide).
    var mode = Mode.poll
    /// The priority of its requests.
    var priority: RequestPriority = .refresh
    /// How claimed confirmations are read: the provider in charge alone, or held by `agree` providers.
    var reads = Reads.single

    /// Most passes a round makes (each grows the window by at least one address).
    static let maxPasses = 10_000

    /// One round: prepare, then passes until the window stops growing (the `xpub` mode: ``xpubRound()``).
    func round() async throws {
        if mode == .xpub { return try await xpubRound() }
        try await prepare()
        if mode == .prepareWindow {
            // A node: the blocks grow the window; the starting balances come from its UTXO set where it can scan it.
            try await startingBalances()
            return
        }
        var all = mode == .poll
        for _ in 0..<Self.maxPasses {
            guard try await pass(all: all) else { return }
            all = false
        }
    }

    /// Creates the wallet's state when it has none, or when the config now describes another wallet under its id
    /// (the old one is forgotten, scripts and all): the first window derived and indexed, and `since` set.
    func prepare() async throws {
        let chain = self.chain
        let wallet = self.wallet
        let id = wallet.id
        let (stored, storedTip) = try context.store.read { txn in
            (try txn.walletState(chain: chain, wallet: id), try txn.tip(chain: chain)?.height)
        }
        if let stored, stored.descriptor == wallet.normalized, stored.since != nil || wallet.from != nil {
            guard wallet.branches.contains(where: { WalletWindow.missing(stored[$0], gap: wallet.gap) != nil })
            else { return }
        }
        var tip = storedTip
        if tip == nil, stored?.since == nil, wallet.from == nil { tip = try await context.tip(providers).height }
        let since = wallet.from ?? tip.map { $0 + 1 }
        let logger = context.logger
        try await context.commit { txn in
            var state = try txn.walletState(chain: chain, wallet: id) ?? wallet.emptyState(chain: chain)
            if state.descriptor != wallet.normalized {
                logger.notice(
                    "the config describes another wallet under this id; forgetting the old one",
                    metadata: ["wallet": "\(id)"]
                )
                try WalletCommit.forget(state, txn: txn)
                state = wallet.emptyState(chain: chain)
            }
            if state.since == nil { state.since = since }
            try WalletCommit.grow(&state, wallet: wallet, txn: txn)
            state.updatedAt = state.updatedAt ?? context.events.now()
            try txn.putWalletState(state)
            return []
        }
    }

    /// One address to observe.
    struct Target: Sendable {
        var ref: WalletAddressRef
        var address: String
    }

    /// What was read about one address.
    struct Observed: Sendable {
        var target: Target
        var observation: AddressReducer.Observation?
        /// The history checked against the other providers (`agree` above 1).
        var trust: VerifiedHistory?
    }

    /// What a pass reads first, in one read transaction: the wallet's state, its addresses' states, the tip and the
    /// chain's block hashes.
    func storedView() throws -> (
        state: WalletState?, addresses: [AddressState], tip: BlockRef?, hashes: [Int: String]
    ) {
        let chain = self.chain
        let id = wallet.id
        return try context.store.read { txn in
            (
                try txn.walletState(chain: chain, wallet: id),
                try txn.addressStates(chain: chain).filter { $0.wallet?.wallet == id },
                try txn.tip(chain: chain),
                try txn.blockHashes(chain: chain)
            )
        }
    }

    /// One pass over the window's addresses (`all`), or over those not checked yet and those whose balance is
    /// unknown.
    /// - Returns: whether the window grew by addresses not checked yet.
    func pass(all: Bool) async throws -> Bool {
        let chain = self.chain
        let id = wallet.id
        let read = try storedView()
        guard let state = read.0, state.descriptor == wallet.normalized else { return false }
        let known = Dictionary(read.1.map { ($0.address, $0) }) { first, _ in first }
        var targets: [Target] = []
        var checking: [WalletBranch: Int] = [:]
        for branch in wallet.branches {
            guard let last = state[branch].derivedUpTo else { continue }
            let unchecked = WalletWindow.unchecked(state[branch])
            let range = all ? 0...last : unchecked
            if let range { checking[branch] = range.upperBound }
            for index in range.map(Array.init) ?? [] {
                let ref = WalletAddressRef(wallet: id, branch: branch, index: index)
                targets.append(Target(ref: ref, address: try wallet.address(branch, index)))
            }
        }
        if !all {
            // Used addresses whose balance is unknown (a reorg reset it, or a block was scanned before the check).
            let listed = Set(targets.map(\.address))
            for address in known.keys.sorted() where !listed.contains(address) {
                guard let stored = known[address], let ref = stored.wallet, stored.summary?.txCount == nil else {
                    continue
                }
                targets.append(Target(ref: ref, address: address))
            }
        }
        guard !targets.isEmpty else { return false }
        let tipBefore = read.2?.hash
        let round = AddressDriver.Round(tipHeight: read.2?.height, hashes: read.3)
        let results = try await observeAtOnePoint(targets, known: known, round: round, since: state.since)
        let whole = try await wholeAmounts(results, known: known, state: state)
        let checked = checking
        let now = context.events.now()
        try await commitPass(at: tipBefore, "wallet pass") { txn, wallets in
            wallets.wholeAmounts[id] = whole
            var events: [NewEvent] = []
            for item in results {
                guard let observation = item.observation else { continue }
                let (stored, address, entry) = try wallets.placed(
                    item.target.address,
                    ref: item.target.ref,
                    wallet: wallet
                )
                var reducerContext = AddressReducer.Context(
                    chain: chain,
                    entry: entry,
                    blockHashes: round.hashes,
                    now: now
                )
                reducerContext.prices = try txn.prices()
                var (next, emitted) = AddressReducer.observe(address, observation, context: reducerContext)
                // A withheld confirmation is read again next round, even when the summary stands still.
                if item.trust?.withheld.isEmpty == false { next.summary?.txCount = nil }
                item.trust?.stamp(&next)
                if next != stored { try txn.putAddressState(next) }
                try wallets.record(item.target.ref, before: stored, after: next, events: emitted)
                events += item.trust?.decorate(emitted) ?? emitted
            }
            for (branch, upTo) in checked { try wallets.checked(id, branch, upTo: upTo) }
            events += try wallets.finish()
            return events
        }
        // Another pass when this one committed (it checked further) and grew the window past what it checked.
        let after = try context.store.read { try $0.walletState(chain: chain, wallet: id) }
        guard let after else { return false }
        let advanced = wallet.branches.contains { after[$0].checkedUpTo != state[$0].checkedUpTo }
        return advanced && wallet.branches.contains { WalletWindow.unchecked(after[$0]) != nil }
    }

    /// Summaries of every target (batched where the provider can, up to its concurrency at a time), then the
    /// history of each address that has one, and lookups of mempool transactions that vanished.
    func observe(_ targets: [Target], known: [String: AddressState], round: AddressDriver.Round, since: Int?)
        async throws -> [Observed]
    {
        var driver = AddressDriver(chain: chain, providers: providers, context: context)
        driver.priority = priority
        let reader = driver
        let batches = providers.first.flatMap { context.chainProviders[$0] }?.capabilities.contains(.addressBatch)
        let chunks =
            batches == true
            ? stride(from: 0, to: targets.count, by: 100).map { Array(targets[$0..<min($0 + 100, targets.count)]) }
            : targets.map { [$0] }
        let width = await context.scheduler.concurrency(of: providers)
        let results = Mutex<[String: Observed]>([:])
        let wallet = self.wallet
        let chain = self.chain
        let events = context.events
        try await AddressDriver.forEach(chunks, width: width) { chunk in
            let summaries = try await reader.fetchSummaries(chunk.map(\.address))
            for target in chunk {
                guard let summary = summaries[target.address] else { continue }
                let stored = known[target.address]
                let empty = summary.txCount == 0 && (summary.unconfirmedTxCount ?? 0) == 0
                if stored == nil, empty {
                    // Checked and unused: nothing to store.
                    results.withLock { $0[target.address] = Observed(target: target, observation: nil) }
                    continue
                }
                // Only to plan the history request: the events come from the commit's entry, with its label.
                let entry = wallet.entry(address: target.address, ref: target.ref, since: since, issuedLabel: nil)
                let reducerContext = AddressReducer.Context(
                    chain: chain,
                    entry: entry,
                    blockHashes: round.hashes,
                    now: events.now()
                )
                let read = try await reader.settledRead(
                    target.address,
                    summary: summary,
                    stored: stored,
                    tipHeight: round.tipHeight,
                    context: reducerContext
                )
                let (settled, complete, source) = (read.summary, read.complete, read.source)
                var history = read.history
                // The zero-conf facts' unconfirmed inputs, as for an address followed alone.
                if let fetched = history { history = try await reader.withUnconfirmedInputs(fetched, stored: stored) }
                var lookups: [String: ChainTransaction?] = [:]
                var spends: [TxOutpoint: OutputSpend] = [:]
                if let history, complete, let stored {
                    for txid in AddressReducer.dropCandidates(stored, history: history)
                        .prefix(AddressDriver.maxLookups)
                    {
                        lookups[txid] = try await reader.lookUp(txid)
                    }
                    spends = try await reader.spendAnswers(
                        stored,
                        history: history,
                        lookups: lookups,
                        tipHeight: round.tipHeight,
                        context: reducerContext
                    )
                }
                var trust: VerifiedHistory?
                if let verifier = reads.verifier(providers, context: context, priority: priority), let fetched = history
                {
                    var stamped = reducerContext
                    stamped.now = context.events.now()
                    let verified = try await verifier.verify(
                        fetched,
                        lookups: lookups,
                        source: source,
                        stored: stored,
                        context: stamped,
                        tipHeight: round.tipHeight
                    )
                    (history, lookups, trust) = (verified.history, verified.lookups, verified)
                }
                let observation = AddressReducer.Observation(
                    summary: settled,
                    history: history,
                    complete: complete,
                    tipHeight: round.tipHeight,
                    lookups: lookups,
                    spends: spends
                )
                results.withLock {
                    $0[target.address] = Observed(target: target, observation: observation, trust: trust)
                }
            }
        }
        let found = results.withLock { $0 }
        let missing = targets.filter { found[$0.address] == nil }
        if !missing.isEmpty {
            throw ProviderError.invalidResponse(
                provider: providers.first ?? "?",
                detail: "no summary for \(missing.count) wallet address(es)"
            )
        }
        return targets.compactMap { found[$0.address] }
    }
}

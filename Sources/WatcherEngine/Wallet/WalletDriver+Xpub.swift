import Foundation
import Logging
import WatcherBitcoin
import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// The `xpub` strategy: one wallet-summary request per round (Blockbook's `/api/v2/xpub`) instead of a summary
/// per address. The summary's transactions are matched by script like a scanned block's, each wallet address
/// touched goes through ``AddressReducer`` like a polled one, and the window grows in the same commit, so the
/// events are the same as the other strategies'.
extension WalletDriver {
    /// Confirmed transactions per summary page (Blockbook's maximum).
    static let summaryPageSize = 1000
    /// Most pages one request sequence reads; past it the round is incomplete (no drop is concluded).
    static let maxSummaryPages = 10

    /// One round: prepare, then summaries until the provider's window covers the wallet's (a mempool payment near
    /// the edge grows the window past what the provider derived, as its last used index counts confirmed ones).
    func xpubRound() async throws {
        try await prepare()
        for _ in 0..<Self.maxPasses {
            guard try await xpubPass() else { return }
        }
    }

    /// One summary (with its pages) and its commit.
    /// - Returns: whether the window grew past what the provider derived, so that another summary must be read.
    func xpubPass() async throws -> Bool {
        let chain = self.chain
        let id = wallet.id
        let read = try storedView()
        guard let state = read.0, state.descriptor == wallet.normalized else { return false }
        let known = read.1
        let gap = WalletWindow.requestGap(state, wallet: wallet, known: known)
        let (pages, complete) = try await summaryPages(gap: gap, known: known, tipHeight: read.2?.height)
        var unconfirmedKnown: [String: WalletAddressRef] = [:]
        for stored in known where stored.txs.values.contains(where: { $0.blockHeight == nil }) {
            if let ref = stored.wallet { unconfirmedKnown[stored.address] = ref }
        }
        let store = context.store
        var summaryRead = try WalletSummaryReader.read(
            pages,
            wallet: wallet,
            state: state,
            provider: providers.first ?? "?",
            complete: complete,
            gap: gap,
            tipHeight: read.2?.height,
            unconfirmedKnown: unconfirmedKnown,
            lookup: { scripts in try store.read { try $0.walletScripts(chain: chain, scripts) } }
        )
        try await withUnconfirmedInputs(&summaryRead.observed, known: known)
        let outcome = summaryRead
        let tipBefore = read.2?.hash
        let hashes = read.3
        let wallet = self.wallet
        let now = context.events.now()
        try await commitPass(at: tipBefore, "wallet summary", derived: outcome.derived) { txn, wallets in
            var events: [NewEvent] = []
            for item in outcome.observed {
                let (stored, address, entry) = try wallets.placed(item.address, ref: item.ref, wallet: wallet)
                var reducerContext = AddressReducer.Context(chain: chain, entry: entry, blockHashes: hashes, now: now)
                reducerContext.prices = try txn.prices()
                let (next, emitted) = AddressReducer.observe(address, item.observation, context: reducerContext)
                if next != stored { try txn.putAddressState(next) }
                try wallets.record(item.ref, before: stored, after: next, events: emitted)
                events += emitted
            }
            for (branch, upTo) in outcome.covered { try wallets.checked(id, branch, upTo: upTo) }
            events += try wallets.finish()
            return events
        }
        let after = try context.store.read { try $0.walletState(chain: chain, wallet: id) }
        guard let after, after.descriptor == wallet.normalized else { return false }
        return wallet.branches.contains { branch in
            (after[branch].derivedUpTo ?? -1) > (outcome.covered[branch] ?? -1)
                && after[branch].derivedUpTo != state[branch].derivedUpTo
        }
    }

    /// Page 1, then further pages while the last one read still holds transactions newer than the newest settled
    /// known one (a round with more than a page of new transactions).
    /// - Returns: the pages and whether they hold every transaction newer than the known settled ones.
    func summaryPages(gap: Int, known: [AddressState], tipHeight: Int?) async throws -> ([WalletSummary], Bool) {
        let settled = Set(
            known.flatMap { stored in
                stored.txs.values.filter { tx in
                    guard let height = tx.blockHeight, let tipHeight else { return false }
                    return tipHeight - height + 1 > (wallet.thresholds.max() ?? 1) + wallet.reorgSafety
                }.map(\.txid)
            }
        )
        let descriptor = wallet.descriptor.descriptor.description
        var pages: [WalletSummary] = []
        for page in 1...Self.maxSummaryPages {
            let summary = try await context.ask(providers, priority) { provider in
                try await provider.walletSummary(descriptor, gap: gap, page: page, pageSize: Self.summaryPageSize)
            }
            // Blockbook clamps pages past the end to the last page: a page that is not the one asked is the end.
            if summary.page != page { return (pages, true) }
            pages.append(summary)
            if summary.isLastPage { return (pages, true) }
            if summary.transactions.contains(where: { settled.contains($0.txid) }) { return (pages, true) }
        }
        return (pages, false)
    }

    /// ``TxFacts/unconfirmedInputs`` of the mempool transactions the summary shows for the first time, as a polled
    /// address's (``AddressDriver/withUnconfirmedInputs(_:stored:)``): a parent in the wallet's own page answers
    /// itself, any other costs one lookup, once.
    func withUnconfirmedInputs(_ observed: inout [WalletSummaryReader.Observed], known: [AddressState]) async throws {
        let stored = Dictionary(known.map { ($0.address, $0) }) { first, _ in first }
        // The wallet's page as one history: a parent paid to another address of the wallet is on it too.
        var page: [String: AddressTx] = [:]
        for item in observed { for tx in item.observation.history ?? [] { page[tx.txid] = tx } }
        var reader = AddressDriver(chain: chain, providers: providers, context: context)
        reader.priority = priority
        for index in observed.indices {
            guard let history = observed[index].observation.history,
                history.contains(where: {
                    $0.blockHeight == nil && stored[observed[index].address]?.txs[$0.txid] == nil
                })
            else { continue }
            let own = Set(history.map(\.txid))
            // The others only answer whether a parent is confirmed: without facts, they cost no lookup.
            let others = page.values.filter { !own.contains($0.txid) }.sorted { $0.txid < $1.txid }.map { tx in
                var tx = tx
                tx.facts = nil
                return tx
            }
            let filled = try await reader.withUnconfirmedInputs(
                history + others,
                stored: stored[observed[index].address]
            )
            observed[index].observation.history = Array(filled.prefix(history.count))
        }
    }
}

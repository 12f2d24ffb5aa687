import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherStorage

/// What a scanned chain matches its blocks and mempool transactions against: the followed addresses of the scanned
/// watches and the scanned wallets' script index (``WalletBlockScan``). The tip job (``ChainDriver``) and the mempool
/// job (``MempoolJob``) both read it.
struct ScanTargets: Sendable {
    typealias WalletScan = WalletBlockScan

    let chain: String
    let context: EngineContext
    /// The followed addresses, read at each round.
    let book: @Sendable () throws -> AddressBook
    /// The chain's `wallet` watches.
    let wallets: WalletBook
    /// Block scanning, when some `address` or `wallet` watches (or the CLI's accounts) are scanned.
    let scan: JobPlan.Scan?

    /// The followed addresses of the scanned watches (`accounts` stands for the CLI's accounts).
    func scannedAddresses() throws -> Set<String> {
        guard let scan else { return [] }
        let watches = Set(scan.watches)
        return Set(try book().entries.values.filter { watches.contains($0.watch) }.map(\.address))
    }

    /// The wallets this chain job scans (strategy `scan`) that have a state, as matching takes them; `nil` when none.
    func walletScan() throws -> WalletScan? {
        guard let scan else { return nil }
        let ids = Set(scan.watches).intersection(wallets.wallets.keys)
        guard !ids.isEmpty else { return nil }
        let chain = self.chain
        let states = try context.store.read { try $0.walletStates(chain: chain) }
        var matching: [String: WalletMatcher.Wallet] = [:]
        for state in states where ids.contains(state.wallet) {
            guard let wallet = wallets.wallets[state.wallet], state.descriptor == wallet.normalized else { continue }
            matching[state.wallet] = wallet.matching(state)
        }
        return matching.isEmpty ? nil : WalletScan(wallets: matching)
    }

    /// Matches one batch's transactions against the wallets, carrying the grown windows to the next batch.
    func matchWallets(_ txs: [WalletMatcher.Tx], _ walletScan: inout WalletScan) throws -> [WalletMatcher.Match] {
        try WalletBlockMatch.match(txs, &walletScan, chain: chain, store: context.store, book: wallets)
    }
}

/// A block's transactions matched against the scanned wallets' script index in the store: what the chain job does
/// with each block (and what `watcher-wallet-scan-bench` measures).
package enum WalletBlockMatch {
    /// Matches `txs` against the wallets of `walletScan` (the script index in `store`, plus the scripts derived
    /// earlier in the same round), carrying the grown windows and derived scripts in `walletScan`.
    package static func match(
        _ txs: [WalletMatcher.Tx],
        _ walletScan: inout WalletBlockScan,
        chain: String,
        store: Store,
        book: WalletBook
    ) throws -> [WalletMatcher.Match] {
        try walletScan.match(
            txs,
            lookup: { scripts in try store.read { try $0.walletScripts(chain: chain, scripts) } },
            derive: { ref in
                guard let wallet = book.wallets[ref.wallet] else { throw WalletError.noChangeBranch }
                return try wallet.script(ref.branch, ref.index)
            }
        )
    }
}

import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherStorage

/// What a scanned chain matches its blocks and mempool transactions against: the followed addresses of the scanned
/// watches and the scanned wallets' script index. The tip job (``ChainDriver``) and the mempool job
/// (``MempoolJob``) both read it.
///
/// Wallets: every output, and every input by its prevout's script, looked up in the script index (one lookup each,
/// whatever the number of wallets), the windows grown and the batch matched again until nothing new matches.
struct ScanTargets: Sendable {
    typealias WalletScan = WalletBlockMatch.Scan

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

/// A block's transactions matched against the scanned wallets: what the chain job does with each block (and what
/// `watcher-wallet-scan-bench` measures).
package enum WalletBlockMatch {
    /// The scanned wallets' windows as a round carries them from block to block, with the scripts it derived that
    /// are not in the index yet.
    package struct Scan: Sendable {
        package var wallets: [String: WalletMatcher.Wallet]
        package var derived: [WalletAddressRef: [UInt8]] = [:]
        package var pending: [[UInt8]: WalletAddressRef] = [:]

        package init(wallets: [String: WalletMatcher.Wallet]) { self.wallets = wallets }
    }

    /// The scriptPubKey an address pays to (what matching compares), `nil` for text that is no address.
    package static func script(of address: String?) -> [UInt8]? {
        address.flatMap(BitcoinAddress.scriptPubKey(fromAddress:))
    }

    /// A provider's transaction as matching sees it: scripts instead of addresses.
    package static func matchable(_ tx: ChainTransaction) -> WalletMatcher.Tx {
        WalletMatcher.Tx(
            txid: tx.txid,
            inputs: tx.inputs.map { .init(script: script(of: $0.address), valueSat: $0.valueSat) },
            outputs: tx.outputs.map { .init(script: script(of: $0.address), valueSat: $0.valueSat) }
        )
    }

    /// Matches `txs` against the wallets of `walletScan` (the script index in `store`, plus the scripts derived
    /// earlier in the same round), carrying the grown windows and derived scripts in `walletScan`.
    package static func match(
        _ txs: [WalletMatcher.Tx],
        _ walletScan: inout Scan,
        chain: String,
        store: Store,
        book: WalletBook
    ) throws -> [WalletMatcher.Match] {
        let pending = walletScan.pending
        let outcome = try WalletMatcher.match(
            txs,
            wallets: walletScan.wallets,
            lookup: { scripts in
                var found = try store.read { try $0.walletScripts(chain: chain, scripts) }
                for (position, script) in scripts.enumerated() where found[position] == nil {
                    if let ref = pending[script] { found[position] = ref }
                }
                return found
            },
            derive: { ref in
                guard let wallet = book.wallets[ref.wallet] else { throw WalletError.noChangeBranch }
                return try wallet.script(ref.branch, ref.index)
            }
        )
        walletScan.wallets = outcome.wallets
        for (ref, script) in outcome.derived {
            walletScan.derived[ref] = script
            walletScan.pending[script] = ref
        }
        return outcome.matches
    }
}

import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherStorage

/// Block scanning for wallets: every output, and every input by its prevout's script, looked up in the script
/// index (one lookup each, whatever the number of wallets), the windows grown and the block matched again until
/// nothing new matches.
extension ChainDriver {
    /// The scanned wallets' windows as a round carries them from block to block, with the scripts it derived that
    /// are not in the index yet.
    struct WalletScan: Sendable {
        var wallets: [String: WalletMatcher.Wallet]
        var derived: [WalletAddressRef: [UInt8]] = [:]
        var pending: [[UInt8]: WalletAddressRef] = [:]
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

    /// The scriptPubKey an address pays to (what matching compares), `nil` for text that is no address.
    static func script(of address: String?) -> [UInt8]? {
        guard let address, let decoded = try? BitcoinAddress(address) else { return nil }
        return decoded.scriptPubKey
    }

    /// A provider's transaction as matching sees it: scripts instead of addresses.
    static func matchable(_ tx: ChainTransaction) -> WalletMatcher.Tx {
        WalletMatcher.Tx(
            txid: tx.txid,
            inputs: tx.inputs.map { .init(script: script(of: $0.address), valueSat: $0.valueSat) },
            outputs: tx.outputs.map { .init(script: script(of: $0.address), valueSat: $0.valueSat) }
        )
    }

    /// Matches one block's transactions against the wallets, carrying the grown windows to the next block.
    func matchWallets(_ txs: [WalletMatcher.Tx], _ walletScan: inout WalletScan) throws -> [WalletMatcher.Match] {
        let chain = self.chain
        let store = context.store
        let pending = walletScan.pending
        let book = wallets
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

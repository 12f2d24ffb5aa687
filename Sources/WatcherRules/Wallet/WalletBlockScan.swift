import WatcherBitcoin
import WatcherCore

/// The scanned wallets' windows as a round carries them from block to block (and from one mempool batch to the
/// next), with the scripts it derived that are not in the script index yet: what the chain and mempool jobs match
/// each block's transactions against (and what `watcher-wallet-scan-bench` measures).
///
/// Every output, and every input by its prevout's script, is looked up in the script index (one lookup each,
/// whatever the number of wallets); the windows grow and the batch is matched again until nothing new matches.
package struct WalletBlockScan: Sendable {
    /// The wallets, their windows as grown so far this round.
    package var wallets: [String: WalletMatcher.Wallet]
    /// The scripts derived this round, by address.
    package var derived: [WalletAddressRef: [UInt8]] = [:]
    /// The same by script: found by a later batch's lookup before the commit puts them in the index.
    package var pending: [[UInt8]: WalletAddressRef] = [:]

    /// A round over `wallets`.
    package init(wallets: [String: WalletMatcher.Wallet]) { self.wallets = wallets }

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

    /// Matches `txs` against the wallets: `lookup` reads the script index (the scripts derived earlier this round
    /// are found here when it does not have them), `derive` gives a wallet's script. The grown windows and the
    /// derived scripts are kept for the next batch.
    package mutating func match(
        _ txs: [WalletMatcher.Tx],
        lookup: ([[UInt8]]) throws -> [Int: WalletAddressRef],
        derive: (WalletAddressRef) throws -> [UInt8]
    ) throws -> [WalletMatcher.Match] {
        let pending = self.pending
        let outcome = try WalletMatcher.match(
            txs,
            wallets: wallets,
            lookup: { scripts in
                var found = try lookup(scripts)
                for (position, script) in scripts.enumerated() where found[position] == nil {
                    if let ref = pending[script] { found[position] = ref }
                }
                return found
            },
            derive: derive
        )
        wallets = outcome.wallets
        for (ref, script) in outcome.derived {
            derived[ref] = script
            self.pending[script] = ref
        }
        return outcome.matches
    }
}

import Logging
import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// Block scanning: each new block read once, page by page, and matched against every scanned address in memory.
extension ChainDriver {
    /// One scanned block: the followed addresses it touches, with their transactions.
    struct ScannedBlock: Sendable {
        var block: BlockRef
        var matches: [String: [AddressReducer.ScannedTx]]
        /// The wallet addresses it touches, per transaction.
        var wallet: [WalletMatcher.Match] = []
    }

    /// Reads every new block of `outcome` once (all its pages) and matches it against the scanned addresses, and
    /// against the scanned wallets' script index.
    func scanBlocks(
        _ outcome: ChainSync.Outcome,
        followed: Set<String>,
        wallets walletScan: ScanTargets.WalletScan? = nil
    )
        async throws -> (blocks: [ScannedBlock], wallets: ScanTargets.WalletScan?)
    {
        var walletScan = walletScan
        guard let scan, !outcome.headers.isEmpty, !followed.isEmpty || walletScan != nil else { return ([], nil) }
        if outcome.skipped > 0 {
            context.logger.warning(
                "more blocks missed than are scanned; the balance fill finds what they paid",
                metadata: ["chain": "\(chain)", "unscanned": "\(outcome.skipped)"]
            )
        }
        var result: [ScannedBlock] = []
        for header in outcome.headers {
            var matches: [String: [AddressReducer.ScannedTx]] = [:]
            var walletTxs: [WalletMatcher.Tx] = []
            var page = 1
            var pages = 1
            repeat {
                let number = page
                let hash = header.hash
                let answer = try await context.ask(scan.providers, .tip) {
                    try await $0.blockTransactions(.hash(hash), page: number)
                }
                pages = max(1, answer.totalPages)
                if !followed.isEmpty {
                    for (address, txs) in AddressReducer.match(answer.transactions, followed: followed) {
                        matches[address, default: []] += txs
                    }
                }
                if walletScan != nil { walletTxs += answer.transactions.map(WalletBlockScan.matchable) }
                page += 1
            } while page <= pages
            var block = ScannedBlock(block: header.ref, matches: matches)
            if var current = walletScan {
                block.wallet = try targets.matchWallets(walletTxs, &current)
                walletScan = current
            }
            result.append(block)
        }
        return (result, walletScan)
    }
}

import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherRules

/// The `wallet` watches of one chain, with what deriving and announcing their addresses needs.
package struct WalletBook: Sendable {
    /// One followed wallet.
    package typealias Wallet = FollowedWallet

    /// The wallets by id.
    package var wallets: [String: Wallet] = [:]

    /// Creates an empty book.
    package init() {}

    /// The wallets of `chain` in `watches`.
    package static func load(chain: String, watches: [WatchConfig]) -> WalletBook {
        var book = WalletBook()
        for watch in watches where watch.kind == .wallet && watch.chain == chain {
            guard let descriptor = watch.wallet else { continue }
            book.wallets[watch.id] = Wallet(
                id: watch.id,
                descriptor: descriptor,
                gap: watch.gap,
                thresholds: watch.confirmations,
                reorgSafety: watch.reorgSafety,
                from: watch.from,
                label: watch.label,
                strategy: watch.strategy
            )
        }
        return book
    }
}

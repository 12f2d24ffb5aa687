import WatcherCore

extension WalletWindow {
    /// The gap to ask of a provider's wallet summary (the `xpub` strategy), so that the provider's window (its last
    /// confirmed used index, 0 when none, plus the gap) reaches every address of the wallet's window, issued ones
    /// included.
    public static func requestGap(_ state: WalletState, wallet: FollowedWallet, known: [AddressState]) -> Int {
        var gap = wallet.gap
        for branch in wallet.branches {
            guard let upTo = state[branch].derivedUpTo else { continue }
            let confirmed = known.compactMap { stored -> Int? in
                // Used in a block: a confirmed transaction known, or a confirmed count (settled ones are pruned).
                guard let ref = stored.wallet, ref.branch == branch,
                    stored.txs.values.contains(where: { $0.blockHeight != nil }) || (stored.summary?.txCount ?? 0) > 0
                else { return nil }
                return ref.index
            }
            gap = max(gap, upTo - max(0, confirmed.max() ?? 0))
        }
        return min(10_000, gap)
    }
}

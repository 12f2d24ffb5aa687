import Logging
import WatcherCore
import WatcherRules

/// A `poll` wallet's addresses are read one by one: a block that reaches the provider meanwhile splits them into
/// those read before it and those read after it, which do not add up.
extension WalletDriver {
    /// ``observe(_:known:round:since:)``, read again while it finds a confirmation in a block the store does not hold
    /// yet (at most twice more): a wallet step's `balanceSat` counts every address at one point of the chain, so they
    /// are all read again after that block.
    func observeAtOnePoint(_ targets: [Target], known: [String: AddressState], round: AddressDriver.Round, since: Int?)
        async throws -> [Observed]
    {
        var observed = try await observe(targets, known: known, round: round, since: since)
        var reached = round.tipHeight
        for _ in 0..<2 {
            guard let base = reached, let newest = Self.newestConfirmation(observed, known: known), newest > base
            else { break }
            context.logger.debug(
                "wallet pass read again: a block reached the provider during it",
                metadata: ["wallet": "\(wallet.id)", "height": "\(newest)"]
            )
            reached = newest
            observed = try await observe(targets, known: known, round: round, since: since)
        }
        return observed
    }

    /// The highest block in which an observed history holds a transaction that its stored state (`known`) does not
    /// hold there: a confirmation this pass would announce.
    static func newestConfirmation(_ observed: [Observed], known: [String: AddressState]) -> Int? {
        observed.compactMap { item in
            let stored = known[item.target.address]
            return item.observation?.history?.compactMap { tx -> Int? in
                guard let height = tx.blockHeight, stored?.txs[tx.txid]?.blockHeight != height else { return nil }
                return height
            }.max()
        }.max()
    }
}

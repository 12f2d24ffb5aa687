import Logging
import WatcherCore
import WatcherRules
import WatcherStorage

extension WalletDriver {
    /// One write transaction of a pass that read the store at the tip `tip`: `body` gets the transaction and its
    /// wallet side, and returns the events. Nothing is written when the stored tip has moved since (a block arrived
    /// meanwhile: the round it starts reads again), nor when the wallet has no state.
    /// - Parameter what: the pass, for the log line of a dropped one.
    func commitPass(
        at tip: String?,
        _ what: String,
        derived: [WalletAddressRef: [UInt8]] = [:],
        _ body: @escaping @Sendable (StoreTransaction<WriteTransaction>, inout WalletCommit) throws -> [NewEvent]
    ) async throws {
        let (chain, id, book, now, logger) = (self.chain, wallet.id, self.book, context.events.now(), context.logger)
        try await context.commit { txn in
            guard try txn.tip(chain: chain)?.hash == tip else {
                logger.debug("\(what) dropped: a block arrived meanwhile", metadata: ["wallet": "\(id)"])
                return []
            }
            var wallets = try WalletCommit(chain: chain, book: book, txn: txn, now: now, derived: derived)
            guard try wallets.state(id) != nil else { return [] }
            return try body(txn, &wallets)
        }
    }
}

import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

extension PushDriver {
    /// Most parents looked up for one pushed transaction.
    static let maxParentLookups = 4

    /// `facts` of a pushed mempool transaction with ``TxFacts/unconfirmedInputs`` filled in, as a poll fills them
    /// (`AddressDriver.withUnconfirmedInputs`): a parent among the address's stored transactions answers itself (its
    /// own unconfirmed coins, the common chain of spends); any other costs one transaction lookup on the pushing
    /// provider from spare budget only, at most ``maxParentLookups``. Without parents, or when a lookup cannot tell
    /// or must wait for budget, the count stays `nil` (unknown, never 0). Nothing is asked when the address holds
    /// `txid` already (another address's push of the same transaction applied it, or a round read it).
    func withUnconfirmedInputs(_ facts: TxFacts?, txid: String, address: String) async -> TxFacts? {
        guard var facts, let parents = facts.parents, facts.unconfirmedInputs == nil else { return facts }
        let chain = self.chain
        let stored = try? context.store.read { try $0.addressState(chain: chain, address: address) }
        guard stored?.txs[txid] == nil else { return facts }
        var confirmedByTxid: [String: Bool] = [:]
        for (txid, tx) in stored?.txs ?? [:] { confirmedByTxid[txid] = tx.blockHeight != nil }
        var lookups = 0
        var count = 0
        for parent in parents {
            if confirmedByTxid[parent] == nil, lookups < Self.maxParentLookups {
                lookups += 1
                confirmedByTxid[parent] = await isConfirmed(parent)
            }
            guard let confirmed = confirmedByTxid[parent] else { return facts }
            if !confirmed { count += 1 }
        }
        facts.unconfirmedInputs = count
        return facts
    }

    /// Whether `txid` is in a block on the pushing provider: `nil` when it cannot tell, or when the lookup would
    /// take budget the provider's other work needs (a push is meant to cost no request; on a public budget a busy
    /// mempool would otherwise spend it on parents).
    private func isConfirmed(_ txid: String) async -> Bool? {
        guard (try? context.chain(provider))?.capabilities.contains(.transaction) == true,
            await context.scheduler.hasSpareBudget(provider)
        else { return nil }
        let tx = try? await context.ask([provider], .tip) { try await $0.transaction(txid) }
        return tx.map { $0.blockHeight != nil }
    }
}

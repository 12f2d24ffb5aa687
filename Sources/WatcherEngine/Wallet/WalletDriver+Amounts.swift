import WatcherCore
import WatcherRules

extension WalletDriver {
    /// The whole effect on the wallet of each transaction this pass found that no address of the wallet held
    /// before and that will be announced (in the mempool, or in a block from `since` on): one transaction lookup
    /// each, at most ``AddressDriver/maxLookups`` a pass. A poll reads the window's addresses one after another, so
    /// the sum of the amounts it saw can miss an address read a moment before the transaction reached the provider
    /// (``WalletLedger/amounts(of:addresses:before:whole:)``). A transaction the provider cannot give is left to
    /// that sum.
    func wholeAmounts(_ observed: [Observed], known: [String: AddressState], state: WalletState) async throws
        -> [String: Int64]
    {
        let held = Set(known.values.flatMap(\.txs.keys))
        var fresh: [String] = []
        for item in observed {
            for tx in item.observation?.history ?? [] where !held.contains(tx.txid) && !fresh.contains(tx.txid) {
                if let height = tx.blockHeight, height < state.since ?? 0 { continue }
                fresh.append(tx.txid)
            }
        }
        guard !fresh.isEmpty else { return [:] }
        var addresses = Set<String>()
        for branch in wallet.branches {
            guard let last = state[branch].derivedUpTo else { continue }
            for index in 0...last { addresses.insert(try wallet.address(branch, index)) }
        }
        var reader = AddressDriver(chain: chain, providers: providers, context: context)
        reader.priority = priority
        var result: [String: Int64] = [:]
        for txid in fresh.prefix(AddressDriver.maxLookups) {
            guard case .some(.some(let tx)) = try await reader.lookUp(txid), tx.txid == txid else { continue }
            result[txid] = WalletLedger.amount(of: tx, addresses: addresses)
        }
        return result
    }
}

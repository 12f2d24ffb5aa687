import WatcherCore

/// ``TxFacts/unconfirmedInputs`` of new mempool transactions. A provider's history names each input's parent
/// txid (Blockbook's vin `txid`) but not whether the parent is confirmed: a parent in the same history answers
/// itself (the address's own unconfirmed coins, the common case of a chain of spends); any other parent costs one
/// transaction lookup, once, when the payment is first seen. Without parents, or when a lookup cannot tell, the
/// count stays `nil`.
extension AddressDriver {
    /// `history` with `unconfirmedInputs` filled in for the mempool transactions `stored` does not know yet, or
    /// knows without the count (a push that could not tell).
    func withUnconfirmedInputs(_ history: [AddressTx], stored: AddressState?) async throws -> [AddressTx] {
        var confirmedByTxid: [String: Bool] = [:]
        for item in history { confirmedByTxid[item.txid] = item.blockHeight != nil }
        let fresh = history.indices.filter { index in
            let known = stored?.txs[history[index].txid]
            return history[index].blockHeight == nil
                && (known == nil || (known?.facts != nil && known?.facts?.unconfirmedInputs == nil))
                && history[index].facts?.parents != nil
        }
        guard !fresh.isEmpty else { return history }
        let capable = context.providers(providers, serving: .transaction)
        var lookups = 0
        var result = history
        for index in fresh {
            guard let parents = history[index].facts?.parents else { continue }
            var count = 0
            var known = true
            for parent in parents {
                if confirmedByTxid[parent] == nil, !capable.isEmpty, lookups < Self.maxLookups {
                    lookups += 1
                    confirmedByTxid[parent] = try await isConfirmed(parent, providers: capable)
                }
                guard let confirmed = confirmedByTxid[parent] else {
                    known = false
                    break
                }
                if !confirmed { count += 1 }
            }
            if known { result[index].facts?.unconfirmedInputs = count }
        }
        return result
    }

    /// Whether `txid` is in a block: `nil` when the provider does not know it.
    private func isConfirmed(_ txid: String, providers: [String]) async throws -> Bool? {
        do {
            let tx = try await context.ask(providers, priority) { try await $0.transaction(txid) }
            return tx.blockHeight != nil
        } catch ProviderError.notFound, ProviderError.unsupported {
            return nil
        }
    }
}

import WatcherCore

extension AddressReducer {
    /// Whether `history` has a transaction in a block that `stored` does not hold it in: a summary read before it
    /// may be older than it, and is read again (the address driver's settled read).
    public static func confirmsAnew(_ history: [AddressTx], stored: AddressState?) -> Bool {
        history.contains { tx in
            guard let hash = tx.blockHash else { return false }
            return stored?.txs[tx.txid]?.blockHash != hash
        }
    }
}

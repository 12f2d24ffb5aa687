import WatcherCore

extension WatchConfig.Kind {
    /// The chain capabilities every provider of a watch of this type needs, failover providers included:
    /// `blocks` follow the tip and read headers, `address` and `wallet` read summaries and histories, `tx` reads one
    /// transaction. `price` needs none (its providers must serve prices instead).
    public var requiredChainCapabilities: ChainCapabilities {
        switch self {
        case .blocks: [.tip, .block]
        case .address, .wallet: [.address, .addressTransactions]
        case .tx: [.transaction]
        case .price: []
        }
    }
}

extension ChainCapabilities {
    /// What a provider without an address index (a `bitcoind` node) needs to serve `address` and `wallet` watches
    /// by scanning every block instead: the tip, headers and block transactions.
    public static let blockScan: ChainCapabilities = [.tip, .block, .blockTransactions]

    /// Whether address and wallet watches can poll this provider (it reads address summaries).
    public var pollsAddresses: Bool { isSuperset(of: [.address, .addressTransactions]) }

    /// What each capability serves, in words, for `watcher check` messages: `["block headers"]`.
    public var phrases: [String] {
        let words: [(ChainCapabilities, String)] = [
            (.tip, "the chain tip"), (.block, "block headers"), (.blockTransactions, "block transaction lists"),
            (.address, "address summaries"), (.addressTransactions, "address histories"),
            (.transaction, "transaction lookups"), (.addressBatch, "batched address summaries"),
            (.status, "a sync status"), (.walletSummary, "wallet summaries (xpub)"),
        ]
        return words.filter { contains($0.0) }.map(\.1)
    }
}

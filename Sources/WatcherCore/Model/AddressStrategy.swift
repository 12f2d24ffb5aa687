/// How an `address` or `wallet` watch follows its addresses.
public enum AddressStrategy: String, Sendable, CaseIterable {
    /// The cheapest within the provider's budget (see `JobPlan`).
    case auto
    /// A summary per address (batched where the provider can) every `every`: sees the mempool; costs grow
    /// with the number of addresses.
    case poll
    /// Each new block read once and matched against every followed address: costs grow with blocks, not
    /// addresses; confirmed payments only (no mempool).
    case scan
    /// Wallet watches only: the provider's wallet summary (Blockbook's `/api/v2/xpub`), one request per wallet
    /// per round whatever the window; sees the mempool. Single-key descriptors only (no multisig).
    case xpub
}

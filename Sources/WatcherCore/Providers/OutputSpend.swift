/// What a provider knows about who spends one output (``ChainProvider/spends(of:outputs:)``): what the engine reads
/// to say why a followed mempool transaction vanished (`address.tx.replaced`).
public enum OutputSpend: Sendable, Hashable {
    /// Another transaction spends the output, in the mempool or a block: `by` is its txid when the provider names it
    /// (Blockbook's `spentTxId`, Core's `spendingtxid`, Esplora's `outspends[n].txid`).
    case spent(by: String?)
    /// The output exists and nothing spends it, in the mempool or a block.
    case unspent
    /// The provider does not know the transaction that made the output: it left the chain (a reorg) or the mempool.
    case parentMissing
}

/// One mempool transaction as ``ChainProvider/mempoolTransactions(_:)`` gives it: the transaction (unconfirmed),
/// and the facts a policy on unconfirmed payments reads.
public struct MempoolTransaction: Sendable, Hashable {
    /// The transaction. An input whose spent output the provider could not find has no address and value 0.
    public var transaction: ChainTransaction
    /// Its fee, size, sequences and parents, each `nil` where the provider cannot tell.
    public var facts: TxFacts

    /// Creates one.
    public init(transaction: ChainTransaction, facts: TxFacts) {
        self.transaction = transaction
        self.facts = facts
    }
}

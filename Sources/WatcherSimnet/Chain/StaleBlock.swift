/// A block a reorg disconnected, kept with its transactions as they were when it was on the main chain.
public struct StaleBlock: Sendable, Hashable {
    /// The block.
    public let block: SimBlock
    /// Its transactions, coinbase first.
    public let transactions: [SimTransaction]
}

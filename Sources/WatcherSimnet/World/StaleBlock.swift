/// A block a reorg disconnected, kept with its transactions as they were when it was on the main chain.
struct StaleBlock: Sendable, Hashable {
    /// The block.
    let block: SimBlock
    /// Its transactions, coinbase first.
    let transactions: [SimTransaction]
}

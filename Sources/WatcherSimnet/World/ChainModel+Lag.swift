/// The chain as an indexer that trails it sees it.
extension ChainModel {
    /// This chain without its top `blocks` blocks (at most all but the first): their transactions leave the
    /// address histories and are not in the mempool either, as for an Electrum server whose index has not reached
    /// them yet (it reads the node's mempool, which no longer holds them). They stay known by txid, as the node
    /// still serves them.
    func lagging(by count: Int) -> ChainModel {
        let count = min(count, blocks.count - 1)
        guard count > 0 else { return self }
        var copy = self
        for block in blocks.suffix(count).reversed() {
            for txid in block.txids.reversed() { copy.unconfirm(txid) }
            copy.blocks.removeLast()
            copy.heightByHash[block.hash] = nil
        }
        return copy
    }
}

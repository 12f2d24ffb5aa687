import WatcherCore

/// Replace-by-fee: a mempool transaction displaced by one spending the same inputs at a higher fee.
extension ChainModel {
    /// Replaces the mempool transaction `txid` with one spending the same inputs (signalling RBF) at a fee
    /// 1,000 sat plus 100 sat per input higher, paying everything else to a fresh outside address. The replaced
    /// transaction and every mempool descendant leave the mempool and are forgotten, as a node forgets them.
    /// - Returns: the replacement, waiting in the mempool.
    /// - Throws: ``Failure/notInMempool(_:)``, or ``Failure/insufficientFunds(needed:available:)`` when the inputs
    ///   cannot pay the higher fee and a standard output.
    public mutating func replace(_ txid: String) throws(Failure) -> SimTransaction {
        guard mempool.contains(txid), let old = transactions[txid], !old.isCoinbase else {
            throw .notInMempool(txid)
        }
        let fee = old.fee + 1_000 + 100 * Int64(old.inputs.count)
        guard old.valueIn - fee >= 546 else { throw .insufficientFunds(needed: fee + 546, available: old.valueIn) }
        // The replaced transaction and its descendants, parents first.
        var gone: [String] = [txid]
        var goneSet: Set<String> = [txid]
        for candidate in mempool where !goneSet.contains(candidate) {
            guard let tx = transactions[candidate], tx.inputs.contains(where: { goneSet.contains($0.prevout.txid) })
            else { continue }
            gone.append(candidate)
            goneSet.insert(candidate)
        }
        mempool.removeAll { goneSet.contains($0) }
        for item in gone.reversed() { evict(item) }
        let inputs = old.inputs.map {
            SimInput(prevout: $0.prevout, address: $0.address, value: $0.value, sequence: 0xffff_fffd)
        }
        let replacement = makeSpend(
            version: 2,
            lockTime: UInt32(tip.height),
            inputs: inputs,
            outputs: [SimOutput(address: newOutsideAddress(), value: old.valueIn - fee)],
            firstSeen: max(old.firstSeen + 1, tip.time + rng.next(in: Int64(1)...120))
        )
        enterMempool(replacement)
        mempool.append(replacement.txid)
        return replacement
    }
}

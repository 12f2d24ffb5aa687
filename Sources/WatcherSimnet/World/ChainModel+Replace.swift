import WatcherCore

/// Replace-by-fee: a mempool transaction displaced by one spending the same inputs at a higher fee.
extension ChainModel {
    /// Replaces the mempool transaction `txid` with one spending the same inputs (signalling RBF) at a fee
    /// 1,000 sat plus 100 sat per input higher, paying everything else to a fresh outside address. With `payTo`, a
    /// fee bump that still pays that address: it gets what the original paid it (everything, when the original paid
    /// it nothing or the rest would be dust), and the rest goes to the fresh outside address. The replaced
    /// transaction and every mempool descendant leave the mempool and are forgotten, as a node forgets them.
    /// - Returns: the replacement, waiting in the mempool.
    /// - Throws: ``Failure/notInMempool(_:)``, or ``Failure/insufficientFunds(needed:available:)`` when the inputs
    ///   cannot pay the higher fee and a standard output.
    public mutating func replace(_ txid: String, payTo: SimAddress? = nil) throws(Failure) -> SimTransaction {
        guard mempool.contains(txid), let old = transactions[txid], !old.isCoinbase else {
            throw .notInMempool(txid)
        }
        let fee = old.fee + 1_000 + 100 * Int64(old.inputs.count)
        guard old.valueIn - fee >= 546 else { throw .insufficientFunds(needed: fee + 546, available: old.valueIn) }
        forget(txid)
        let available = old.valueIn - fee
        let outputs: [SimOutput]
        if let payTo {
            book[payTo.string] = book[payTo.string] ?? payTo
            if !trackedAddresses.contains(payTo.string) { trackedAddresses.append(payTo.string) }
            let paid = old.outputs.filter { $0.address == payTo.string }.reduce(Int64(0)) { $0 + $1.value }
            if paid > 0, available - paid >= 546 {
                outputs = [
                    SimOutput(address: payTo.string, value: paid),
                    SimOutput(address: newOutsideAddress(), value: available - paid),
                ]
            } else {
                outputs = [SimOutput(address: payTo.string, value: available)]
            }
        } else {
            outputs = [SimOutput(address: newOutsideAddress(), value: available)]
        }
        let inputs = old.inputs.map {
            SimInput(prevout: $0.prevout, address: $0.address, value: $0.value, sequence: 0xffff_fffd)
        }
        let replacement = makeSpend(
            version: 2,
            lockTime: UInt32(tip.height),
            inputs: inputs,
            outputs: outputs,
            firstSeen: max(old.firstSeen + 1, tip.time + rng.next(in: Int64(1)...120))
        )
        enterMempool(replacement)
        mempool.append(replacement.txid)
        return replacement
    }

    /// Drops the mempool transaction `txid` and its mempool descendants, as a node's mempool drops what expired or
    /// no longer fits: its inputs are unspent again.
    /// - Returns: the txids dropped, the transaction's first.
    /// - Throws: ``Failure/notInMempool(_:)``.
    @discardableResult
    public mutating func evictFromMempool(_ txid: String) throws(Failure) -> [String] {
        guard mempool.contains(txid), transactions[txid] != nil else { throw .notInMempool(txid) }
        return forget(txid)
    }

    /// Removes `txid` and every mempool descendant from the mempool and forgets them, children first.
    @discardableResult
    private mutating func forget(_ txid: String) -> [String] {
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
        return gone
    }
}

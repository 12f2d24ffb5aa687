/// The four state transitions every transaction goes through, kept in one place so that
/// spent-markers, the spendable pool and the address ledger always agree:
/// new → mempool (``enterMempool(_:)``) → confirmed (``confirm(_:height:index:)``), and back on a reorg
/// (``unconfirm(_:)``), or mempool → gone (``evict(_:)``).
extension ChainModel {
    /// Records a new transaction as unconfirmed: marks its inputs spent. The caller appends it to
    /// `mempool` (or includes it in a block right away).
    mutating func enterMempool(_ tx: SimTransaction) {
        transactions[tx.txid] = tx
        for (index, input) in tx.inputs.enumerated() {
            spentBy[input.prevout] = SpendRef(txid: tx.txid, input: index)
            spendable.remove(input.prevout)
        }
    }

    /// Moves a known transaction into the block at `height`, position `index`. The caller removes it
    /// from `mempool`.
    mutating func confirm(_ txid: String, height: Int, index: Int) {
        guard let tx = transactions[txid] else { return }
        confirmedAt[txid] = TxLocation(height: height, index: index)
        ledger.connect(tx)
        let maturing = tx.isCoinbase && parameters.network.coinbaseMaturity > 0
        for (vout, output) in tx.outputs.enumerated() {
            guard let address = output.address, funded.contains(address) else { continue }
            let outpoint = SimOutpoint(txid: txid, vout: vout)
            if maturing {
                immatureCoinbase[height, default: []].append(outpoint)
            } else if spentBy[outpoint] == nil {
                spendable.insert(outpoint)
            }
        }
    }

    /// Makes the coinbase outputs spendable that a transaction in the block at `spendHeight` may spend: those of
    /// blocks at least ``SimnetNetwork/coinbaseMaturity`` below it (Core: `nSpendHeight - coinHeight >= 100`).
    mutating func releaseMatured(spendHeight: Int) {
        let limit = spendHeight - parameters.network.coinbaseMaturity
        for height in immatureCoinbase.keys.sorted() where height <= limit {
            for outpoint in immatureCoinbase.removeValue(forKey: height) ?? []
            where spentBy[outpoint] == nil && confirmedAt[outpoint.txid] != nil {
                spendable.insert(outpoint)
            }
        }
    }

    /// Takes a confirmed transaction back out of its block (the reverse of ``confirm(_:height:index:)``).
    mutating func unconfirm(_ txid: String) {
        guard let tx = transactions[txid], let location = confirmedAt.removeValue(forKey: txid) else { return }
        ledger.disconnect(tx)
        if tx.isCoinbase { immatureCoinbase[location.height] = nil }
        for vout in tx.outputs.indices {
            spendable.remove(SimOutpoint(txid: txid, vout: vout))
        }
    }

    /// Forgets an unconfirmed transaction: its inputs become unspent again. The caller removes it
    /// from `mempool` and must evict any child first.
    mutating func evict(_ txid: String) {
        guard let tx = transactions[txid], confirmedAt[txid] == nil else { return }
        for vout in tx.outputs.indices {
            spendable.remove(SimOutpoint(txid: txid, vout: vout))
        }
        for input in tx.inputs where spentBy[input.prevout]?.txid == txid {
            spentBy[input.prevout] = nil
            if confirmedAt[input.prevout.txid] != nil, funded.contains(input.address) {
                spendable.insert(input.prevout)
            }
        }
        transactions[txid] = nil
    }

    /// The output an outpoint refers to, if known.
    func output(at outpoint: SimOutpoint) -> SimOutput? {
        guard let tx = transactions[outpoint.txid], tx.outputs.indices.contains(outpoint.vout) else { return nil }
        return tx.outputs[outpoint.vout]
    }
}

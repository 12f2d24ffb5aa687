import WatcherCore

/// Control-API mutations: payments to any address and chain reorganisations.
extension ChainModel {
    /// Creates an unconfirmed transaction paying `amountSat` to `address` from the funded addresses'
    /// confirmed outputs. It is mined in the next block.
    /// - Returns: the new transaction.
    /// - Throws: ``Failure/invalidAmount(_:)`` or ``Failure/insufficientFunds(needed:available:)``.
    public mutating func pay(to address: SimAddress, amountSat: Int64) throws(Failure) -> SimTransaction {
        guard amountSat > 0, amountSat <= 2_100_000_000_000_000 else { throw .invalidAmount(amountSat) }
        var picked: [(SimOutpoint, SimOutput)] = []
        var total: Int64 = 0
        func fee(_ inputs: Int) -> Int64 { 300 + 150 * Int64(inputs) }
        while total < amountSat + fee(picked.count), picked.count < 2_000,
            let outpoint = spendable.takeRandom(using: &rng), let output = output(at: outpoint)
        {
            picked.append((outpoint, output))
            total += output.value
        }
        guard total >= amountSat + fee(picked.count) else {
            for (outpoint, _) in picked { spendable.insert(outpoint) }
            let available = spendable.items.reduce(Int64(0)) { $0 + (output(at: $1)?.value ?? 0) }
            throw .insufficientFunds(needed: amountSat + fee(picked.count), available: available)
        }
        book[address.string] = book[address.string] ?? address
        if !trackedAddresses.contains(address.string) { trackedAddresses.append(address.string) }
        let inputs = picked.map { outpoint, output in
            SimInput(prevout: outpoint, address: output.address ?? "", value: output.value, sequence: 0xffff_fffd)
        }
        var outputs = [SimOutput(address: address.string, value: amountSat)]
        let change = total - amountSat - fee(picked.count)
        if change >= 546 { outputs.append(SimOutput(address: inputs[0].address, value: change)) }
        let tx = SimTransaction(
            txid: nextHash(),
            version: 2,
            lockTime: UInt32(tip.height),
            inputs: inputs,
            outputs: outputs,
            coinbaseScript: nil,
            firstSeen: tip.time + rng.next(in: Int64(1)...120),
            txIndex: nextTxIndex()
        )
        enterMempool(tx)
        mempool.append(tx.txid)
        return tx
    }

    /// Replaces the top `depth` blocks with a competing branch of the same length.
    ///
    /// Each disconnected non-coinbase transaction, in chain order, is re-confirmed on the new
    /// branch, returned to the mempool, or vanishes (as if double-spent), chosen by the seeded
    /// generator; children of a vanished transaction vanish too, and a transaction is only
    /// re-confirmed when its parents are confirmed. Coinbase transactions always vanish.
    /// - Returns: each replaced height with its old and new hash, lowest first.
    /// - Throws: ``Failure/invalidReorgDepth(_:maximum:)`` unless `1 <= depth < blocks.count`.
    public mutating func reorg(depth: Int) throws(Failure) -> [ReorgedBlock] {
        let maximum = blocks.count - 1
        guard depth >= 1, depth <= maximum else { throw .invalidReorgDepth(depth, maximum: maximum) }
        let old = Array(blocks.suffix(depth))
        var coinbases: [String] = []
        var returned: [(txid: String, slot: Int)] = []
        for (slot, block) in old.enumerated().reversed() {
            for txid in block.txids.reversed() { unconfirm(txid) }
            blocks.removeLast()
            heightByHash[block.hash] = nil
            coinbases.append(block.txids[0])
            returned.insert(contentsOf: block.txids.dropFirst().map { ($0, slot) }, at: 0)
        }

        // Decide each returned transaction's fate, parents before children.
        var vanished = Set(coinbases)
        var reconfirmed: Set<String> = []
        var perSlot = [[String]](repeating: [], count: depth)
        for (txid, slot) in returned {
            guard let tx = transactions[txid] else { continue }
            let parents = tx.inputs.map(\.prevout.txid)
            if parents.contains(where: vanished.contains) {
                vanished.insert(txid)
                continue
            }
            let parentsConfirmed = parents.allSatisfy { confirmedAt[$0] != nil || reconfirmed.contains($0) }
            switch rng.next(below: 4) {
            case 0: vanished.insert(txid)
            case 1...2 where parentsConfirmed:
                reconfirmed.insert(txid)
                perSlot[slot].append(txid)
            default: break
            }
        }
        let waiting = mempool
        mempool = returned.map(\.txid).filter { !vanished.contains($0) }
        for txid in waiting {
            guard let tx = transactions[txid] else { continue }
            if tx.inputs.contains(where: { vanished.contains($0.prevout.txid) }) {
                vanished.insert(txid)
            } else {
                mempool.append(txid)
            }
        }
        for txid in (coinbases.reversed() + returned.map(\.txid) + waiting).reversed() where vanished.contains(txid) {
            evict(txid)
        }

        return old.enumerated().map { slot, oldBlock in
            let block = mineBlock(including: perSlot[slot], refillMempool: false)
            return ReorgedBlock(height: block.height, oldHash: oldBlock.hash, newHash: block.hash)
        }
    }
}

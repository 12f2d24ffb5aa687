import WatcherCore

/// Control-API mutations: payments to any address and chain reorganisations.
extension ChainModel {
    /// Creates an unconfirmed transaction paying `amountSat` to `address`, spending the unspent outputs of `from`
    /// (confirmed or waiting in the mempool) with the change going to `change` (default: back to `from`), or,
    /// without `from`, the funded addresses' confirmed outputs with the change back to the first input's address.
    /// It is mined in the next block. Its inputs signal replace-by-fee (nSequence `0xfffffffd`) unless `rbf` is
    /// false (`0xfffffffe`: final, lock time enabled).
    /// - Returns: the new transaction.
    /// - Throws: ``Failure/invalidAmount(_:)``, ``Failure/insufficientFunds(needed:available:)`` or
    ///   ``Failure/insufficientFundsAt(_:needed:available:)``.
    public mutating func pay(
        to address: SimAddress,
        amountSat: Int64,
        from: SimAddress? = nil,
        change: SimAddress? = nil,
        rbf: Bool = true
    )
        throws(Failure) -> SimTransaction
    {
        guard amountSat > 0, amountSat <= 2_100_000_000_000_000 else { throw .invalidAmount(amountSat) }
        let sequence: UInt32 = rbf ? 0xffff_fffd : 0xffff_fffe
        if let from {
            return try pay(
                to: address,
                amountSat: amountSat,
                spending: from,
                change: change ?? from,
                sequence: sequence
            )
        }
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
            SimInput(prevout: outpoint, address: output.address ?? "", value: output.value, sequence: sequence)
        }
        var outputs = [SimOutput(address: address.string, value: amountSat)]
        let changeValue = total - amountSat - fee(picked.count)
        if changeValue >= 546, let change {
            book[change.string] = book[change.string] ?? change
            if !trackedAddresses.contains(change.string) { trackedAddresses.append(change.string) }
            outputs.append(SimOutput(address: change.string, value: changeValue))
        } else if changeValue >= 546 {
            outputs.append(SimOutput(address: inputs[0].address, value: changeValue))
        }
        return admitSpend(inputs: inputs, outputs: outputs)
    }

    /// A payment out of one address: its unspent outputs, oldest first, until they cover the amount and the fee.
    private mutating func pay(
        to address: SimAddress,
        amountSat: Int64,
        spending from: SimAddress,
        change: SimAddress,
        sequence: UInt32
    ) throws(Failure) -> SimTransaction {
        func fee(_ inputs: Int) -> Int64 { 300 + 150 * Int64(inputs) }
        let view = view(of: from.string)
        var unspent: [(SimOutpoint, SimOutput)] = []
        for txid in view.confirmed + view.unconfirmed {
            guard let tx = transactions[txid] else { continue }
            for (vout, output) in tx.outputs.enumerated() where output.address == from.string {
                let outpoint = SimOutpoint(txid: txid, vout: vout)
                if spentBy[outpoint] == nil { unspent.append((outpoint, output)) }
            }
        }
        var picked: [(SimOutpoint, SimOutput)] = []
        var total: Int64 = 0
        for item in unspent where total < amountSat + fee(picked.count) {
            picked.append(item)
            total += item.1.value
        }
        guard total >= amountSat + fee(picked.count) else {
            let available = unspent.reduce(Int64(0)) { $0 + $1.1.value }
            throw .insufficientFundsAt(
                from.string,
                needed: amountSat + fee(max(1, unspent.count)),
                available: available
            )
        }
        for item in [address, change] {
            book[item.string] = book[item.string] ?? item
            if !trackedAddresses.contains(item.string) { trackedAddresses.append(item.string) }
        }
        let inputs = picked.map { outpoint, output in
            SimInput(prevout: outpoint, address: from.string, value: output.value, sequence: sequence)
        }
        var outputs = [SimOutput(address: address.string, value: amountSat)]
        let changeValue = total - amountSat - fee(picked.count)
        if changeValue >= 546 { outputs.append(SimOutput(address: change.string, value: changeValue)) }
        return admitSpend(inputs: inputs, outputs: outputs)
    }

    /// Replaces the top `depth` blocks with a competing branch of the same length (on regtest one block longer, as
    /// Core needs more work to switch).
    ///
    /// Each disconnected non-coinbase transaction, in chain order, is re-confirmed on the new
    /// branch, returned to the mempool, or vanishes (as if double-spent), chosen by the seeded
    /// generator; children of a vanished transaction vanish too, and a transaction is only
    /// re-confirmed when its parents are confirmed. Coinbase transactions always vanish.
    /// - Returns: each replaced height with its old and new hash, lowest first.
    /// - Throws: ``Failure/invalidReorgDepth(_:maximum:)`` unless `1 <= depth < blocks.count`.
    public mutating func reorg(depth: Int) throws(Failure) -> [ReorgedBlock] {
        // The funding block stays (and on regtest the genesis block below it).
        let maximum = blocks.count - 1 - (parameters.network == .regtest ? 1 : 0)
        guard depth >= 1, depth <= maximum else { throw .invalidReorgDepth(depth, maximum: maximum) }
        let old = Array(blocks.suffix(depth))
        var coinbases: [String] = []
        var returned: [(txid: String, slot: Int)] = []
        for (slot, block) in old.enumerated().reversed() {
            staleBlocks[block.hash] = StaleBlock(
                block: block,
                transactions: block.txids.compactMap { transactions[$0] }
            )
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

        let replaced = old.enumerated().map { slot, oldBlock in
            let block = mineBlock(including: perSlot[slot], refillMempool: false)
            return ReorgedBlock(height: block.height, oldHash: oldBlock.hash, newHash: block.hash)
        }
        // Core switches only to a branch with more work: on regtest the new branch is one block longer (an empty block
        // on top), so a node's clients polling the height see the switch as a real node would make it.
        if parameters.network == .regtest { mineBlock(including: [], refillMempool: false) }
        return replaced
    }

    /// A version-2 spend of `inputs` to `outputs`, seen shortly after the tip, entered into the mempool.
    private mutating func admitSpend(inputs: [SimInput], outputs: [SimOutput]) -> SimTransaction {
        let tx = makeSpend(
            version: 2,
            lockTime: UInt32(tip.height),
            inputs: inputs,
            outputs: outputs,
            firstSeen: tip.time + rng.next(in: Int64(1)...120)
        )
        enterMempool(tx)
        mempool.append(tx.txid)
        return tx
    }
}

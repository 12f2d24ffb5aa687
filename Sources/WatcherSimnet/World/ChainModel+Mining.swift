import WatcherBitcoin
import WatcherCore

/// Block production: the funding block, regular blocks and the random traffic that fills them.
extension ChainModel {
    /// Mines `count` blocks on the tip, each confirming the whole mempool plus random transactions.
    /// - Returns: the new blocks, lowest first.
    /// - Throws: ``Failure/invalidCount(_:)`` when `count` is outside 1...1000.
    public mutating func mine(count: Int) throws(Failure) -> [SimBlock] {
        guard (1...1_000).contains(count) else { throw .invalidCount(count) }
        return (0..<count).map { _ in mineBlock() }
    }

    /// The first block: a coinbase paying each funded address two outputs. On mainnet it is the chain's first
    /// block, on a made-up parent; on regtest it is height 1 on the genesis block, and its outputs stay within the
    /// 50 BTC subsidy, as Core's validation demands.
    mutating func mineFundingBlock() {
        let time = parameters.startTime
        let height = blocks.last.map { $0.height + 1 } ?? parameters.startHeight
        let most: Int64 =
            parameters.network == .regtest
            ? max(5_000_000, subsidy(at: height) / Int64(2 * fundedAddresses.count)) : 250_000_000
        var outputs: [SimOutput] = []
        for address in fundedAddresses {
            for _ in 0..<2 {
                outputs.append(SimOutput(address: address.string, value: rng.next(in: Int64(5_000_000)...most)))
            }
        }
        let parent = blocks.last?.hash ?? nextHash()
        let coinbase = makeCoinbase(height: height, outputs: outputs, time: time, commitment: nil)
        appendBlock(transactions: [coinbase], height: height, time: time, parent: parent)
    }

    /// Regtest's genesis block at height 0, its real bytes. Its coinbase pays a P2PK key that no address stands
    /// for, and, as in Core, it is in no index: the simnet keeps its raw bytes (for `getblock`) and no outputs.
    mutating func appendGenesis() {
        let raw = RegtestGenesis.block
        let coinbase = SimTransaction(
            raw: raw.transactions[0],
            inputs: [],
            outputs: [],
            firstSeen: Int64(raw.header.time),
            txIndex: nextTxIndex()
        )
        transactions[coinbase.txid] = coinbase
        let block = SimBlock(
            height: 0,
            hash: raw.hash.displayHex,
            previousBlockHash: raw.header.previousBlockHash.displayHex,
            merkleRoot: raw.header.merkleRoot.displayHex,
            nonce: raw.header.nonce,
            bits: raw.header.bitsHex,
            difficulty: Self.difficultyText,
            version: raw.header.version,
            time: Int64(raw.header.time),
            size: raw.serialized().count,
            strippedSize: raw.serialized().count,
            header: raw.header,
            txids: [coinbase.txid]
        )
        blocks.append(block)
        heightByHash[block.hash] = 0
        confirmedAt[coinbase.txid] = TxLocation(height: 0, index: 0)
    }

    /// Mines one block on the tip. With `explicit` (a reorg's competing branch) it confirms exactly
    /// those mempool transactions instead of the whole mempool.
    @discardableResult
    mutating func mineBlock(including explicit: [String]? = nil, refillMempool: Bool = true) -> SimBlock {
        let parent = tip
        let height = parent.height + 1
        let time = parent.time + rng.next(in: Int64(300)...900)
        var included = explicit ?? mempool
        while included.count + 1 < parameters.txsPerBlock, let tx = makeRandomTransaction(firstSeen: time - 30) {
            enterMempool(tx)
            included.append(tx.txid)
            // Outputs of a transaction in this block may be spent later in the same block, so big
            // blocks never run out of coins to move.
            for (vout, output) in tx.outputs.enumerated() where output.address.map(funded.contains) == true {
                spendable.insert(SimOutpoint(txid: tx.txid, vout: vout))
            }
        }
        let fees = included.reduce(Int64(0)) { $0 + (transactions[$1]?.fee ?? 0) }
        let miner = rng.element(of: fundedAddresses).string
        let coinbase = makeCoinbase(
            height: height,
            outputs: [SimOutput(address: miner, value: subsidy(at: height) + fees)],
            time: time,
            commitment: TxSerializer.witnessCommitment(included.compactMap { transactions[$0]?.raw })
        )
        let block = appendBlock(
            transactions: [coinbase] + included.compactMap { transactions[$0] },
            height: height,
            time: time,
            parent: parent.hash
        )
        let confirmed = Set(included)
        mempool.removeAll { confirmed.contains($0) }
        releaseMatured(spendHeight: height + 1)
        if refillMempool {
            for offset in 0..<parameters.mempoolTxsPerBlock {
                guard let tx = makeRandomTransaction(firstSeen: time + 20 * Int64(offset + 1)) else { break }
                enterMempool(tx)
                mempool.append(tx.txid)
            }
        }
        return block
    }

    /// Appends a block whose transactions are already known (or are its new coinbase) and confirms them. The
    /// header is real: the merkle root of the txids, regtest's bits, and a nonce searched from a random start until
    /// the hash meets the target.
    @discardableResult
    mutating func appendBlock(transactions txs: [SimTransaction], height: Int, time: Int64, parent: String) -> SimBlock
    {
        var size = RawBlockHeader.serializedSize + ByteWriter.compactSizeLength(UInt64(txs.count))
        var strippedSize = size
        for tx in txs {
            if transactions[tx.txid] == nil { enterMempool(tx) }
            size += tx.raw.size
            strippedSize += tx.raw.strippedSize
        }
        var header = RawBlockHeader(
            version: Int32(0x2000_0000) | Int32(rng.next(below: 0x2000)) << 13,
            previousBlockHash: Hash256(displayHex: parent) ?? .zero,
            merkleRoot: MerkleRoot.compute(txs.map(\.txidHash)),
            time: UInt32(truncatingIfNeeded: time),
            bits: Self.bits,
            nonce: UInt32(truncatingIfNeeded: rng.next())
        )
        var hash = header.hash
        while !Self.meetsTarget(hash) {
            header.nonce &+= 1
            hash = header.hash
        }
        let block = SimBlock(
            height: height,
            hash: hash.displayHex,
            previousBlockHash: parent,
            merkleRoot: header.merkleRoot.displayHex,
            nonce: header.nonce,
            bits: header.bitsHex,
            difficulty: Self.difficultyText,
            version: header.version,
            time: time,
            size: size,
            strippedSize: strippedSize,
            header: header,
            txids: txs.map(\.txid)
        )
        blocks.append(block)
        heightByHash[block.hash] = height
        for (index, tx) in txs.enumerated() { confirm(tx.txid, height: height, index: index) }
        return block
    }

    /// A coinbase paying `outputs`, with the BIP34 height and a random extra nonce, and with `commitment` (BIP141)
    /// as a last `OP_RETURN` output and the reserved value as its witness.
    mutating func makeCoinbase(height: Int, outputs: [SimOutput], time: Int64, commitment: [UInt8]?) -> SimTransaction {
        var all = outputs
        if let commitment { all.append(SimOutput(opReturn: [0xaa, 0x21, 0xa9, 0xed] + commitment)) }
        let book = self.book
        let raw = TxSerializer.coinbase(
            height: height,
            extraNonce: rng.bytes(8),
            outputs: all,
            witness: commitment != nil,
            resolve: { book[$0] }
        )
        return SimTransaction(raw: raw, inputs: [], outputs: all, firstSeen: time, txIndex: nextTxIndex())
    }

    /// A spend of `inputs` to `outputs` with filler signatures drawn from the seeded generator.
    mutating func makeSpend(
        version: Int32,
        lockTime: UInt32,
        inputs: [SimInput],
        outputs: [SimOutput],
        firstSeen: Int64
    ) -> SimTransaction {
        var filler = SplitMixRandom(seed: rng.next())
        let book = self.book
        let raw = TxSerializer.spend(
            version: version,
            lockTime: lockTime,
            inputs: inputs,
            outputs: outputs,
            filler: &filler,
            resolve: { book[$0] }
        )
        return SimTransaction(raw: raw, inputs: inputs, outputs: outputs, firstSeen: firstSeen, txIndex: nextTxIndex())
    }

    /// A random payment between wallet addresses (sometimes to a fresh outside address), spending
    /// confirmed outputs of funded addresses. `nil` when nothing is spendable.
    mutating func makeRandomTransaction(firstSeen: Int64) -> SimTransaction? {
        guard let first = spendable.takeRandom(using: &rng), let firstOutput = output(at: first) else { return nil }
        var picked = [(first, firstOutput)]
        if firstOutput.value < 50_000, let second = spendable.takeRandom(using: &rng), let out = output(at: second) {
            picked.append((second, out))
        }
        let sequence = rng.element(of: [UInt32(0xffff_ffff), 0xffff_fffe, 0xffff_fffd])
        let inputs = picked.map { outpoint, output in
            SimInput(prevout: outpoint, address: output.address ?? "", value: output.value, sequence: sequence)
        }
        let total = inputs.reduce(Int64(0)) { $0 + $1.value }
        let fee = min(rng.next(in: Int64(200)...3_000) * Int64(inputs.count), total / 2)
        let spendableValue = total - fee
        let destination = rng.chance(0.2) ? newOutsideAddress() : rng.element(of: fundedAddresses).string
        let payment = spendableValue * Int64(rng.next(in: 10...90)) / 100
        var outputs = [SimOutput(address: destination, value: payment)]
        let change = spendableValue - payment
        if payment >= 546 && change >= 546 {
            outputs.append(SimOutput(address: rng.element(of: fundedAddresses).string, value: change))
            if rng.chance(0.5) { outputs.reverse() }
        } else {
            outputs = [SimOutput(address: destination, value: spendableValue)]
        }
        if rng.chance(0.05) {
            outputs.append(SimOutput(opReturn: Array("simnet".utf8) + rng.bytes(4)))
        }
        return makeSpend(
            version: rng.chance(0.1) ? 1 : 2,
            lockTime: sequence == 0xffff_ffff ? 0 : UInt32(tip.height),
            inputs: inputs,
            outputs: outputs,
            firstSeen: firstSeen
        )
    }

    /// A fresh address outside the wallet, of a random kind.
    mutating func newOutsideAddress() -> String {
        let kind = rng.element(of: [SimAddress.Kind.p2wpkh, .p2tr, .p2pkh, .p2sh, .p2wsh])
        let address = SimAddress.random(kind, network: parameters.network, using: &rng)
        book[address.string] = address
        return address.string
    }
}

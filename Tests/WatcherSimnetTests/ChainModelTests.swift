import Testing
import WatcherBitcoin
import WatcherSimnet

/// Invariants of the pure chain model, checked against an oracle recomputed from the blocks.
@Suite("Chain model")
struct ChainModelTests {
    /// Recomputes every tracked address's balances and counts from the raw blocks and mempool.
    private func expectTruthsMatchBlocks(_ chain: ChainModel) {
        for truth in chain.truths() {
            var received: Int64 = 0
            var sent: Int64 = 0
            var count = 0
            for block in chain.blocks {
                for txid in block.txids {
                    guard let tx = chain.transaction(txid) else {
                        Issue.record("block \(block.height) lists unknown tx \(txid)")
                        continue
                    }
                    let inbound = tx.outputs.filter { $0.address == truth.address }.reduce(Int64(0)) { $0 + $1.value }
                    let outbound = tx.inputs.filter { $0.address == truth.address }.reduce(Int64(0)) { $0 + $1.value }
                    received += inbound
                    sent += outbound
                    if tx.touchedAddresses.contains(truth.address) { count += 1 }
                }
            }
            let pending = chain.mempool.compactMap { chain.transaction($0) }
            let pendingDelta = pending.reduce(Int64(0)) { $0 + $1.delta(for: [truth.address]) }
            let pendingCount = pending.filter { $0.touchedAddresses.contains(truth.address) }.count
            #expect(truth.totalReceivedSat == received, "\(truth.address) received")
            #expect(truth.totalSentSat == sent, "\(truth.address) sent")
            #expect(truth.confirmedBalanceSat == received - sent, "\(truth.address) balance")
            #expect(truth.confirmedTxCount == count, "\(truth.address) tx count")
            #expect(truth.unconfirmedBalanceSat == pendingDelta, "\(truth.address) unconfirmed balance")
            #expect(truth.unconfirmedTxCount == pendingCount, "\(truth.address) unconfirmed count")
            #expect(truth.confirmedBalanceSat >= 0)
        }
    }

    /// Blocks link by hash, coinbase first and only first, amounts balance, inputs spend real outputs once.
    private func expectWellFormed(_ chain: ChainModel) {
        var spent: Set<SimOutpoint> = []
        for (index, block) in chain.blocks.enumerated() {
            if index > 0 { #expect(block.previousBlockHash == chain.blocks[index - 1].hash) }
            #expect(block.height == chain.parameters.startHeight + index)
            // Real bytes: the hash is the header's, the merkle root the txids', each txid the hash of its raw form.
            #expect(block.hash == block.header.hash.displayHex && block.header.bits == 0x207f_ffff)
            #expect(block.header.hash.bytes.last.map { $0 < 0x80 } == true, "regtest proof of work")
            let raw = block.txids.compactMap { chain.transaction($0)?.raw }
            #expect(raw.map(\.txid.displayHex) == block.txids)
            #expect(block.merkleRoot == MerkleRoot.compute(raw.map(\.txid)).displayHex)
            #expect(block.header.merkleRoot.displayHex == block.merkleRoot)
            #expect(raw.first?.isCoinbase == true)
            var fees: Int64 = 0
            for (position, txid) in block.txids.enumerated() {
                guard let tx = chain.transaction(txid) else { continue }
                #expect(tx.isCoinbase == (position == 0), "coinbase only first in block \(block.height)")
                #expect(chain.location(of: txid) == ChainModel.TxLocation(height: block.height, index: position))
                if !tx.isCoinbase {
                    #expect(tx.fee > 0 && tx.valueIn == tx.valueOut + tx.fee)
                    fees += tx.fee
                }
                for input in tx.inputs {
                    #expect(spent.insert(input.prevout).inserted, "double spend of \(input.prevout)")
                    let source = chain.transaction(input.prevout.txid)
                    #expect(source?.outputs[input.prevout.vout].value == input.value)
                    #expect(source?.outputs[input.prevout.vout].address == input.address)
                }
            }
            if index > 0, let coinbase = chain.transaction(block.txids[0]) {
                let subsidy = Int64(5_000_000_000) >> Int64(block.height / 210_000)  // 6.25 BTC before 840000
                #expect(coinbase.valueOut == subsidy + fees, "coinbase pays subsidy plus fees")
            }
        }
    }

    @Test func freshChainIsWellFormed() throws {
        let chain = ChainModel(parameters: ChainParameters(seed: 1))
        #expect(chain.blocks.count == 6)
        #expect(chain.tip.height == 800_005)
        #expect(chain.mempool.count == 3)
        #expect(chain.truths().count == 24)
        expectWellFormed(chain)
        expectTruthsMatchBlocks(chain)
    }

    @Test func fundedAddressesAreValidMainnetAddressesOfEveryKind() throws {
        let chain = ChainModel(parameters: ChainParameters(seed: 3))
        let kinds = Set(chain.fundedAddresses.map(\.kind))
        #expect(kinds == [.p2wpkh, .p2tr, .p2pkh, .p2sh])
        for address in chain.fundedAddresses {
            let decoded = try SimAddressParser.decode(address.string)
            #expect(decoded == address)
            let prefix: String =
                switch address.kind {
                case .p2wpkh: "bc1q"
                case .p2tr: "bc1p"
                case .p2pkh: "1"
                case .p2sh: "3"
                default: "?"
                }
            #expect(address.string.hasPrefix(prefix))
        }
    }

    @Test func invariantsHoldAcrossPaymentsAndReorgs() throws {
        var chain = ChainModel(parameters: ChainParameters(seed: 5, txsPerBlock: 40, mempoolTxsPerBlock: 5))
        let outside = try SimAddressParser.decode("1BoatSLRHtKNngkdXEeobR76b53LETtpyT")
        for round in 0..<4 {
            _ = try chain.pay(to: outside, amountSat: 25_000 + Int64(round))
            _ = try chain.mine(count: 2)
            let replaced = try chain.reorg(depth: 1 + round % 3)
            #expect(replaced.allSatisfy { $0.oldHash != $0.newHash })
            #expect(replaced.last?.height == chain.tip.height)
            expectWellFormed(chain)
            expectTruthsMatchBlocks(chain)
        }
        let paid = try #require(chain.truths().first { $0.address == outside.string })
        #expect(!paid.funded)
    }

    @Test func paymentIsUnconfirmedThenMinedInTheNextBlock() throws {
        var chain = ChainModel(parameters: ChainParameters(seed: 8))
        let target = try SimAddressParser.decode("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0")
        let tx = try chain.pay(to: target, amountSat: 70_000)
        #expect(chain.location(of: tx.txid) == nil)
        #expect(chain.truths().last?.unconfirmedBalanceSat == 70_000)
        let block = try #require(try chain.mine(count: 1).first)
        #expect(chain.location(of: tx.txid)?.height == block.height)
        #expect(chain.truths().last?.confirmedBalanceSat == 70_000)
    }

    @Test func refusesBadOperations() throws {
        var chain = ChainModel(parameters: ChainParameters(seed: 2, initialBlocks: 3))
        let target = try SimAddressParser.decode("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy")
        #expect(throws: ChainModel.Failure.invalidAmount(0)) { try chain.pay(to: target, amountSat: 0) }
        #expect(throws: ChainModel.Failure.invalidReorgDepth(3, maximum: 2)) { try chain.reorg(depth: 3) }
        #expect(throws: ChainModel.Failure.invalidCount(0)) { try chain.mine(count: 0) }
        #expect(throws: ChainModel.Failure.self) { try chain.pay(to: target, amountSat: 2_000_000_000_000_000) }
    }
}

import Testing
import WatcherBitcoin
import WatcherCore

/// Seeded random transactions and blocks survive serialize → parse unchanged, with stable ids.
@Suite struct RoundTripPropertyTests {
    @Test("random transactions round-trip", arguments: [UInt64(1), 2, 3, 0xdead_beef])
    func transactions(_ seed: UInt64) throws {
        var rng = SplitMixRandom(seed: seed)
        for round in 0..<150 {
            let witness = round % 2 == 0
            let coinbase = round % 5 == 0
            let tx = rng.transaction(witness: witness, coinbase: coinbase)
            let bytes = tx.serialized()
            let parsed = try Transaction(bytes: bytes)
            #expect(parsed == tx, "seed \(seed) round \(round)")
            #expect(parsed.txid == tx.txid)
            #expect(try Transaction(bytes: tx.serialized(withWitness: false)).txid == tx.txid)
            #expect(parsed.isCoinbase == coinbase)
            #expect(parsed.hasWitness == witness)
            #expect((parsed.wtxid == parsed.txid) == !witness)
            #expect(parsed.size == bytes.count)
            #expect(parsed.weight == parsed.strippedSize * 3 + parsed.size)
            #expect(parsed.vsize * 4 >= parsed.weight && parsed.vsize * 4 < parsed.weight + 4)
            #expect(try Transaction(hex: parsed.hex().uppercased()) == tx)
        }
    }

    @Test("random blocks round-trip and their computed merkle root checks", arguments: [UInt64(7), 8])
    func blocks(_ seed: UInt64) throws {
        var rng = SplitMixRandom(seed: seed)
        for count in 1...12 {
            var transactions = [rng.transaction(witness: true, coinbase: true)]
            for index in 1..<count {
                transactions.append(rng.transaction(witness: index % 2 == 0, coinbase: false))
            }
            var block = RawBlock(
                header: RawBlockHeader(
                    version: 0x2000_0000,
                    previousBlockHash: Hash256(hashing: rng.bytes(8)),
                    merkleRoot: .zero,
                    time: .random(in: 0...UInt32.max, using: &rng),
                    bits: 0x1d00_ffff,
                    nonce: .random(in: 0...UInt32.max, using: &rng)
                ),
                transactions: transactions
            )
            #expect(!block.hasValidMerkleRoot)
            block.header.merkleRoot = block.computedMerkleRoot
            #expect(block.hasValidMerkleRoot)
            let parsed = try RawBlock(bytes: block.serialized())
            #expect(parsed == block)
            #expect(parsed.hash == block.hash)
            #expect(try RawBlockHeader(bytes: block.header.serialized()) == block.header)
        }
    }
}

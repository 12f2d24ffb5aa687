import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Real blocks and headers parse, hash to their recorded hashes, and carry a merkle root that checks.
@Suite struct BlockTests {
    @Test("mainnet block 1 parses, hashes to its hash, and its merkle root checks")
    func mainnetBlock1() throws {
        let raw = try Fixtures.text("bitcoind/getblock-main-1-verbosity0-core0131.txt")
        let json = try Fixtures.json("bitcoind/getblock-main-1-verbosity1-core0131.json")
        let block = try RawBlock(hex: raw)

        #expect(block.hash.displayHex == json["hash"]?.stringValue)
        #expect(block.header.merkleRoot.displayHex == json["merkleroot"]?.stringValue)
        #expect(block.computedMerkleRoot == block.header.merkleRoot)
        #expect(block.hasValidMerkleRoot)
        #expect(block.txids.map(\.displayHex) == json["tx"]?.arrayValue?.compactMap(\.stringValue))
        #expect(block.header.previousBlockHash.displayHex == json["previousblockhash"]?.stringValue)
        #expect(block.header.version == json["version"]?.integer.map(Int32.init))
        #expect(block.header.time == json["time"]?.integer.map(UInt32.init))
        #expect(block.header.nonce == json["nonce"]?.integer.map(UInt32.init))
        #expect(block.header.bitsHex == json["bits"]?.stringValue)
        #expect(block.size == json["size"]?.integer.map(Int.init))
        #expect(block.strippedSize == json["strippedsize"]?.integer.map(Int.init))
        #expect(block.weight == json["weight"]?.integer.map(Int.init))

        let coinbase = try #require(block.transactions.first)
        #expect(coinbase.isCoinbase)
        #expect(coinbase.outputs.map(\.value) == [50 * 100_000_000])
        #expect(Hex.encode(block.serialized()) == raw)
    }

    @Test("a block with a trailing byte or a cut transaction throws, with block-relative offsets")
    func blockErrors() throws {
        let bytes = try #require(Hex.decode(try Fixtures.text("bitcoind/getblock-main-1-verbosity0-core0131.txt")))
        #expect(throws: ByteDecodingError.trailingBytes(offset: bytes.count, count: 1)) {
            try RawBlock(bytes: bytes + [0])
        }
        // The coinbase starts at 81; its lock time is the block's last 4 bytes.
        #expect(
            throws: ByteDecodingError.truncated(field: "lock time", offset: bytes.count - 4, needed: 4, available: 3)
        ) {
            try RawBlock(bytes: Array(bytes.dropLast()))
        }
        var forged = Array(bytes[0..<80])
        forged += [0xfe, 0xff, 0xff, 0xff, 0xff]
        #expect(
            throws: ByteDecodingError.countTooLarge(
                field: "transaction count",
                offset: 80,
                count: 0xffff_ffff,
                limit: 0
            )
        ) {
            try RawBlock(bytes: forged)
        }
    }

    @Test("a block whose header disagrees with its transactions fails the merkle check")
    func merkleMismatch() throws {
        var block = try RawBlock(hex: try Fixtures.text("bitcoind/getblock-main-1-verbosity0-core0131.txt"))
        block.transactions[0].lockTime = 1
        #expect(!block.hasValidMerkleRoot)
    }

    @Test("testnet header 1000 parses to the fields of getblockheader and hashes to its hash")
    func testnetHeader1000() throws {
        let raw = try Fixtures.text("bitcoind/getblockheader-test-1000-core0121-verbose-false.txt")
        let json = try Fixtures.json("bitcoind/getblockheader-test-1000-core0121.json")
        let header = try RawBlockHeader(hex: raw)

        #expect(header.hash.displayHex == json["hash"]?.stringValue)
        #expect(header.version == json["version"]?.integer.map(Int32.init))
        #expect(header.previousBlockHash.displayHex == json["previousblockhash"]?.stringValue)
        #expect(header.merkleRoot.displayHex == json["merkleroot"]?.stringValue)
        #expect(header.time == json["time"]?.integer.map(UInt32.init))
        #expect(header.bitsHex == json["bits"]?.stringValue)
        #expect(header.bits == 0x1d00_ffff)
        #expect(header.nonce == json["nonce"]?.integer.map(UInt32.init))
        #expect(Hex.encode(header.serialized()) == raw)
    }

    @Test("Electrum headers: genesis and block 1 chain up, block 1's equals the block's first 80 bytes, block 5 hashes")
    func electrumHeaders() throws {
        let headers = try #require(
            try Fixtures.json("electrum/block-headers-main-0-2-protocol16.json")["headers"]?.arrayValue?.compactMap(
                \.stringValue
            )
        )
        try #require(headers.count == 2)
        let genesis = try RawBlockHeader(hex: headers[0])
        let first = try RawBlockHeader(hex: headers[1])
        #expect(genesis.previousBlockHash == .zero)
        #expect(first.previousBlockHash == genesis.hash)
        let block1 = try Fixtures.json("bitcoind/getblock-main-1-verbosity1-core0131.json")
        #expect(genesis.hash.displayHex == block1["previousblockhash"]?.stringValue)
        #expect(first.hash.displayHex == block1["hash"]?.stringValue)
        let rawBlock1 = try Fixtures.text("bitcoind/getblock-main-1-verbosity0-core0131.txt")
        #expect(rawBlock1.hasPrefix(headers[1]))

        let header5 = try #require(try Fixtures.json("electrum/block-header-main-5.json").stringValue)
        // The hash the fixture's SOURCES.md row gives for height 5.
        #expect(
            try RawBlockHeader(hex: header5).hash.displayHex
                == "000000009b7262315dbf071787ad3656097b892abffd1f95a1a022f896f533fc"
        )
    }

    @Test("a header must be exactly 80 bytes", arguments: [0, 79, 81])
    func headerLength(_ length: Int) {
        #expect(throws: ByteDecodingError.wrongLength(field: "block header", expected: 80, actual: length)) {
            try RawBlockHeader(bytes: [UInt8](repeating: 0, count: length))
        }
    }

    @Test("merkle root: empty, one, and odd counts duplicating the last")
    func merkleRoots() throws {
        let a = Hash256(hashing: [1])
        let b = Hash256(hashing: [2])
        let c = Hash256(hashing: [3])
        func pair(_ left: Hash256, _ right: Hash256) -> Hash256 { Hash256(hashing: left.bytes + right.bytes) }

        #expect(MerkleRoot.compute([]) == .zero)
        #expect(MerkleRoot.compute([a]) == a)
        #expect(MerkleRoot.compute([a, b]) == pair(a, b))
        #expect(MerkleRoot.compute([a, b, c]) == pair(pair(a, b), pair(c, c)))
        #expect(MerkleRoot.compute([a, b, c, c]) == MerkleRoot.compute([a, b, c]))
        #expect(!MerkleRoot.isMutated([a, b, c]))
        #expect(MerkleRoot.isMutated([a, b, c, c]))
        #expect(MerkleRoot.isMutated([a, b, a, b]))
    }
}

import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Malformed and hostile transactions throw a ``ByteDecodingError`` with the offset; none traps or over-allocates.
@Suite struct TransactionDecodingErrorTests {
    static let legacyHex =
        "0100000001bafe2175b9d7b3041ebac529056b393cf2997f7964485aa382ffa449ffdac02a000000008a473044022013d212c2"
        + "2f0b46bb33106d148493b9a9723adb2c3dd3a3ebe3a9c9e3b95d8cb00220461661710202fbab550f973068af45c294667fc4dc"
        + "526627a7463eb23ab39e9b01410479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada772"
        + "6a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8ffffffff01b0a86a00000000001976a91401b81d5fa1e5"
        + "5e069e3cc2db9c19e2e80358f30688ac00000000"

    static func segwitBytes() throws -> [UInt8] {
        let json = try Fixtures.json("bitcoind/getrawtransaction-verbose-testnet-08b4283f-mixed-inputs.json")
        let hex = try #require(json["hex"]?.stringValue)
        return try #require(Hex.decode(hex))
    }

    @Test("every proper prefix of a segwit and a legacy transaction throws")
    func everyPrefixThrows() throws {
        for bytes in [try Self.segwitBytes(), try #require(Hex.decode(Self.legacyHex))] {
            #expect(try Transaction(bytes: bytes).serialized() == bytes)
            for length in 0..<bytes.count {
                #expect(throws: ByteDecodingError.self, "prefix of \(length) bytes") {
                    try Transaction(bytes: Array(bytes[0..<length]))
                }
            }
        }
    }

    @Test("a cut inside the scriptSig names the field and the offset")
    func truncationNamesField() throws {
        let bytes = try #require(Hex.decode(Self.legacyHex))
        // version 4 + count 1 + outpoint 36 = 41; the scriptSig length 0x8a is at 41, its bytes at 42.
        #expect(throws: ByteDecodingError.truncated(field: "input 0 scriptSig", offset: 42, needed: 138, available: 58))
        {
            try Transaction(bytes: Array(bytes[0..<100]))
        }
        #expect(throws: ByteDecodingError.truncated(field: "lock time", offset: 219, needed: 4, available: 2)) {
            try Transaction(bytes: Array(bytes.dropLast(2)))
        }
    }

    @Test("a trailing byte throws with its offset")
    func trailingByte() throws {
        let bytes = try Self.segwitBytes()
        #expect(throws: ByteDecodingError.trailingBytes(offset: bytes.count, count: 1)) {
            try Transaction(bytes: bytes + [0])
        }
    }

    @Test("a non-canonical input count throws")
    func nonCanonicalCount() throws {
        var bytes = try #require(Hex.decode(Self.legacyHex))
        // Input count 1 as 0xfd 0x01 0x00.
        bytes.replaceSubrange(4..<5, with: [0xfd, 0x01, 0x00])
        #expect(throws: ByteDecodingError.nonCanonicalCompactSize(field: "input count", offset: 4, value: 1)) {
            try Transaction(bytes: bytes)
        }
    }

    @Test("an absurd input count throws before anything is allocated")
    func absurdInputCount() {
        let bytes: [UInt8] =
            [1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f] + [UInt8](repeating: 0, count: 50)
        #expect(
            throws: ByteDecodingError.countTooLarge(
                field: "input count",
                offset: 4,
                count: 0x7fff_ffff_ffff_ffff,
                limit: 1
            )
        ) {
            try Transaction(bytes: bytes)
        }
        // The same behind a segwit marker, and for outputs and witness items.
        let segwit: [UInt8] = [2, 0, 0, 0, 0, 1, 0xfe, 0xff, 0xff, 0xff, 0xff] + [UInt8](repeating: 0, count: 20)
        #expect(throws: ByteDecodingError.self) { try Transaction(bytes: segwit) }
    }

    @Test("an absurd output count, witness count or script length throws")
    func absurdInnerLengths() throws {
        let tx = Transaction(
            version: 2,
            inputs: [TransactionInput(previousOutput: .null, scriptSig: [1, 2], witness: [[3]])],
            outputs: [TransactionOutput(value: 5, scriptPubKey: [0x51])],
            lockTime: 0
        )
        let bytes = tx.serialized()
        // marker/flag at 4-5, input count at 6, input 7..<50 (script length at 43), output count at 50,
        // witness item count at 61.
        var outputs = bytes
        outputs.replaceSubrange(50..<51, with: [0xff, 0, 0, 0, 0, 1, 0, 0, 0])
        #expect(throws: ByteDecodingError.countTooLarge(field: "output count", offset: 50, count: 1 << 32, limit: 1)) {
            try Transaction(bytes: outputs)
        }
        var script = bytes
        script.replaceSubrange(43..<44, with: [0xfe, 0xff, 0xff, 0xff, 0x7f])
        #expect(
            throws: ByteDecodingError.truncated(
                field: "input 0 scriptSig",
                offset: 48,
                needed: 0x7fff_ffff,
                available: 24
            )
        ) {
            try Transaction(bytes: script)
        }
        var witness = bytes
        witness.replaceSubrange(61..<62, with: [0xfe, 0, 0, 0, 0x10])
        #expect(
            throws: ByteDecodingError.countTooLarge(
                field: "input 0 witness item count",
                offset: 61,
                count: 1 << 28,
                limit: 6
            )
        ) {
            try Transaction(bytes: witness)
        }
    }

    @Test("an unknown segwit flag and a superfluous witness are rejected as Core does")
    func segwitFlags() throws {
        var bytes = try Self.segwitBytes()
        bytes[5] = 2
        #expect(throws: ByteDecodingError.unknownSegwitFlag(offset: 5, flag: 2)) { try Transaction(bytes: bytes) }
        // Flag 1 but every witness stack empty.
        let empty: [UInt8] =
            [1, 0, 0, 0, 0, 1, 1] + [UInt8](repeating: 0, count: 36) + [0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0]
        #expect(throws: ByteDecodingError.superfluousWitness(offset: 50)) { try Transaction(bytes: empty) }
    }

    @Test("a zero-input, zero-output body (marker byte 0 then flag 0) parses as Core parses it")
    func emptyTransaction() throws {
        let bytes: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        let tx = try Transaction(bytes: bytes)
        #expect(tx.inputs.isEmpty && tx.outputs.isEmpty)
        #expect(tx.serialized() == bytes)
    }

    @Test("non-hex text throws invalidHex")
    func invalidHex() {
        #expect(throws: ByteDecodingError.invalidHex) { try Transaction(hex: "0g") }
        #expect(throws: ByteDecodingError.invalidHex) { try Transaction(hex: "010") }
    }
}

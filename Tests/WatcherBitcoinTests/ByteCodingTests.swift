import Testing
import WatcherBitcoin

/// ``ByteReader`` and ``ByteWriter``: integers, every CompactSize width, and their limits.
@Suite struct ByteCodingTests {
    @Test(
        "CompactSize widths round-trip at their boundaries",
        arguments: [
            (UInt64(0), 1), (0xfc, 1), (0xfd, 3), (0xffff, 3), (0x1_0000, 5), (0xffff_ffff, 5),
            (0x1_0000_0000, 9), (UInt64.max, 9),
        ]
    )
    func compactSizeRoundTrip(_ value: UInt64, _ width: Int) throws {
        var writer = ByteWriter()
        writer.writeCompactSize(value)
        #expect(writer.bytes.count == width)
        #expect(ByteWriter.compactSizeLength(value) == width)
        var reader = ByteReader(writer.bytes)
        #expect(try reader.readCompactSize("n") == value)
        #expect(reader.isAtEnd)
    }

    @Test(
        "a CompactSize wider than its value needs is rejected",
        arguments: [
            ([0xfd, 0xfc, 0x00], UInt64(0xfc)),
            ([0xfd, 0x00, 0x00], 0),
            ([0xfe, 0xff, 0xff, 0x00, 0x00], 0xffff),
            ([0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00], 0xffff_ffff),
        ] as [([UInt8], UInt64)]
    )
    func nonCanonicalCompactSize(_ bytes: [UInt8], _ value: UInt64) {
        var reader = ByteReader([0xaa] + bytes)
        _ = try? reader.readUInt8("pad")
        #expect(throws: ByteDecodingError.nonCanonicalCompactSize(field: "n", offset: 1, value: value)) {
            try reader.readCompactSize("n")
        }
    }

    @Test("a CompactSize cut inside its payload names the offset")
    func truncatedCompactSize() {
        var reader = ByteReader([0xfe, 0x01, 0x02])
        #expect(throws: ByteDecodingError.truncated(field: "n", offset: 1, needed: 4, available: 2)) {
            try reader.readCompactSize("n")
        }
    }

    @Test("little-endian integers round-trip, signed ones in two's complement")
    func integers() throws {
        var writer = ByteWriter()
        writer.writeUInt8(0xab)
        writer.writeUInt32(0x0102_0304)
        writer.writeInt32(-2)
        writer.writeUInt64(0x0102_0304_0506_0708)
        writer.writeInt64(-5_000_000_000)
        writer.writeVarBytes([9, 8, 7])
        #expect(Array(writer.bytes[1..<5]) == [4, 3, 2, 1])
        #expect(Array(writer.bytes[5..<9]) == [0xfe, 0xff, 0xff, 0xff])

        var reader = ByteReader(writer.bytes)
        #expect(try reader.readUInt8("a") == 0xab)
        #expect(try reader.readUInt32("b") == 0x0102_0304)
        #expect(try reader.readInt32("c") == -2)
        #expect(try reader.readUInt64("d") == 0x0102_0304_0506_0708)
        #expect(try reader.readInt64("e") == -5_000_000_000)
        #expect(try reader.readVarBytes("f") == [9, 8, 7])
        #expect(reader.isAtEnd)
        #expect(throws: ByteDecodingError.truncated(field: "g", offset: 29, needed: 4, available: 0)) {
            try reader.readUInt32("g")
        }
    }

    @Test("readCount caps a count by what the remaining bytes can hold")
    func countCap() throws {
        var fits = ByteReader([3] + [UInt8](repeating: 0, count: 27))
        #expect(try fits.readCount("items", minimumElementSize: 9) == 3)
        var tooMany = ByteReader([4] + [UInt8](repeating: 0, count: 27))
        #expect(throws: ByteDecodingError.countTooLarge(field: "items", offset: 0, count: 4, limit: 3)) {
            try tooMany.readCount("items", minimumElementSize: 9)
        }
    }

    @Test("a 70,000-byte script (0xfe length) round-trips through a transaction")
    func wideLength() throws {
        let tx = Transaction(
            version: 1,
            inputs: [TransactionInput(previousOutput: OutPoint(txid: Hash256(hashing: [7]), vout: 3))],
            outputs: [TransactionOutput(value: 1, scriptPubKey: [UInt8](repeating: 0x6a, count: 70_000))],
            lockTime: 0
        )
        let bytes = tx.serialized()
        #expect(bytes[4 + 1 + 41 + 1 + 8] == 0xfe)
        #expect(try Transaction(bytes: bytes) == tx)
    }
}

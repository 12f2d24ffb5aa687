/// Reads Bitcoin's consensus encoding from a byte buffer, front to back.
///
/// Integers are little-endian. Every read checks the bytes left first and throws a
/// ``ByteDecodingError`` naming the field and the offset; nothing traps on short or hostile input.
/// Counts are capped by ``readCount(_:minimumElementSize:)`` so a forged length cannot make a caller
/// reserve gigabytes.
public struct ByteReader: Sendable {
    /// The whole buffer being read.
    public let bytes: [UInt8]
    /// The offset of the next byte to read, from the start of ``bytes``.
    public private(set) var offset: Int

    /// A reader at the start of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    /// How many bytes are left to read.
    public var remaining: Int { bytes.count - offset }

    /// `true` once every byte has been read.
    public var isAtEnd: Bool { offset == bytes.count }

    /// Throws ``ByteDecodingError/trailingBytes(offset:count:)`` unless every byte has been read.
    public func expectEnd() throws(ByteDecodingError) {
        guard isAtEnd else { throw .trailingBytes(offset: offset, count: remaining) }
    }

    /// The next byte, without consuming it; `nil` at the end.
    public func peekUInt8() -> UInt8? {
        isAtEnd ? nil : bytes[offset]
    }

    /// Reads one byte.
    public mutating func readUInt8(_ field: @autoclosure () -> String) throws(ByteDecodingError) -> UInt8 {
        try require(1, field)
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a little-endian `UInt32`.
    public mutating func readUInt32(_ field: @autoclosure () -> String) throws(ByteDecodingError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readLittleEndian(4, field))
    }

    /// Reads a little-endian `Int32` (two's complement).
    public mutating func readInt32(_ field: @autoclosure () -> String) throws(ByteDecodingError) -> Int32 {
        Int32(bitPattern: try readUInt32(field()))
    }

    /// Reads a little-endian `UInt64`.
    public mutating func readUInt64(_ field: @autoclosure () -> String) throws(ByteDecodingError) -> UInt64 {
        try readLittleEndian(8, field)
    }

    /// Reads a little-endian `Int64` (two's complement).
    public mutating func readInt64(_ field: @autoclosure () -> String) throws(ByteDecodingError) -> Int64 {
        Int64(bitPattern: try readUInt64(field()))
    }

    /// Reads `count` bytes as they are.
    public mutating func readBytes(
        _ count: Int,
        _ field: @autoclosure () -> String
    ) throws(ByteDecodingError) -> [UInt8] {
        try require(count, field)
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads a CompactSize (1, 3, 5 or 9 bytes), rejecting a form wider than its value needs.
    public mutating func readCompactSize(_ field: @autoclosure () -> String) throws(ByteDecodingError) -> UInt64 {
        let start = offset
        let first = try readUInt8(field())
        let value: UInt64
        let minimum: UInt64
        switch first {
        case 0xfd:
            value = try readLittleEndian(2, field)
            minimum = 0xfd
        case 0xfe:
            value = try readLittleEndian(4, field)
            minimum = 0x1_0000
        case 0xff:
            value = try readLittleEndian(8, field)
            minimum = 0x1_0000_0000
        default:
            return UInt64(first)
        }
        guard value >= minimum else {
            throw .nonCanonicalCompactSize(field: field(), offset: start, value: value)
        }
        return value
    }

    /// Reads a CompactSize count of elements that take at least `minimumElementSize` bytes each.
    ///
    /// Throws ``ByteDecodingError/countTooLarge(field:offset:count:limit:)`` when the remaining
    /// bytes could not hold that many, so the result is always safe to `reserveCapacity` with.
    public mutating func readCount(
        _ field: @autoclosure () -> String,
        minimumElementSize: Int
    ) throws(ByteDecodingError) -> Int {
        let start = offset
        let count = try readCompactSize(field())
        let limit = remaining / max(minimumElementSize, 1)
        guard count <= UInt64(limit) else {
            throw .countTooLarge(field: field(), offset: start, count: count, limit: limit)
        }
        return Int(count)
    }

    /// Reads a CompactSize length and then that many bytes (a script, a witness item).
    public mutating func readVarBytes(_ field: @autoclosure () -> String) throws(ByteDecodingError) -> [UInt8] {
        let length = try readCompactSize(field())
        guard length <= UInt64(remaining) else {
            throw .truncated(field: field(), offset: offset, needed: Int(clamping: length), available: remaining)
        }
        return try readBytes(Int(length), field())
    }

    private func require(_ count: Int, _ field: () -> String) throws(ByteDecodingError) {
        guard count >= 0, count <= remaining else {
            throw .truncated(field: field(), offset: offset, needed: count, available: remaining)
        }
    }

    private mutating func readLittleEndian(_ width: Int, _ field: () -> String) throws(ByteDecodingError) -> UInt64 {
        try require(width, field)
        var value: UInt64 = 0
        for index in 0..<width {
            value |= UInt64(bytes[offset + index]) << (8 * UInt64(index))
        }
        offset += width
        return value
    }
}

/// Writes Bitcoin's consensus encoding into a growing byte buffer.
///
/// Integers are little-endian and lengths are CompactSize, always in the shortest form, so what
/// this writes reads back through ``ByteReader`` unchanged.
public struct ByteWriter: Sendable {
    /// Everything written so far.
    public private(set) var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes before it grows.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// How many bytes the CompactSize form of `value` takes: 1, 3, 5 or 9.
    public static func compactSizeLength(_ value: UInt64) -> Int {
        switch value {
        case ..<0xfd: 1
        case ...0xffff: 3
        case ...0xffff_ffff: 5
        default: 9
        }
    }

    /// Appends one byte.
    public mutating func writeUInt8(_ value: UInt8) {
        bytes.append(value)
    }

    /// Appends a little-endian `UInt32`.
    public mutating func writeUInt32(_ value: UInt32) {
        writeLittleEndian(UInt64(value), width: 4)
    }

    /// Appends a little-endian `Int32` (two's complement).
    public mutating func writeInt32(_ value: Int32) {
        writeUInt32(UInt32(bitPattern: value))
    }

    /// Appends a little-endian `UInt64`.
    public mutating func writeUInt64(_ value: UInt64) {
        writeLittleEndian(value, width: 8)
    }

    /// Appends a little-endian `Int64` (two's complement).
    public mutating func writeInt64(_ value: Int64) {
        writeUInt64(UInt64(bitPattern: value))
    }

    /// Appends `value` as a CompactSize in its shortest form.
    public mutating func writeCompactSize(_ value: UInt64) {
        switch ByteWriter.compactSizeLength(value) {
        case 1:
            bytes.append(UInt8(value))
        case 3:
            bytes.append(0xfd)
            writeLittleEndian(value, width: 2)
        case 5:
            bytes.append(0xfe)
            writeLittleEndian(value, width: 4)
        default:
            bytes.append(0xff)
            writeLittleEndian(value, width: 8)
        }
    }

    /// Appends `count` (an element count or a length) as a CompactSize.
    public mutating func writeCompactSize(_ count: Int) {
        precondition(count >= 0, "a CompactSize cannot be negative")
        writeCompactSize(UInt64(count))
    }

    /// Appends `bytes` as they are.
    public mutating func writeBytes(_ bytes: some Sequence<UInt8>) {
        self.bytes.append(contentsOf: bytes)
    }

    /// Appends the CompactSize length of `bytes` and then the bytes (a script, a witness item).
    public mutating func writeVarBytes(_ bytes: some Collection<UInt8>) {
        writeCompactSize(bytes.count)
        self.bytes.append(contentsOf: bytes)
    }

    private mutating func writeLittleEndian(_ value: UInt64, width: Int) {
        for index in 0..<width {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }
}

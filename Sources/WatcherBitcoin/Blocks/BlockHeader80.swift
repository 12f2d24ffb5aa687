/// The 80-byte block header as serialized: the part of a block that is hashed and mined.
///
/// Named `RawBlockHeader` so it does not clash with the watcher's own `BlockHeader` model, which
/// holds what a provider reports about a block rather than its consensus bytes.
public struct RawBlockHeader: Sendable, Hashable {
    /// The serialized size of a header: always 80 bytes.
    public static let serializedSize = 80

    /// The block version (signed; BIP9 version bits live in it).
    public var version: Int32
    /// The hash of the previous block (``Hash256/zero`` for the genesis block).
    public var previousBlockHash: Hash256
    /// The merkle root of the block's txids.
    public var merkleRoot: Hash256
    /// The block time, Unix seconds.
    public var time: UInt32
    /// The compact target ("bits"), e.g. `0x1d00ffff`.
    public var bits: UInt32
    /// The nonce.
    public var nonce: UInt32

    /// A header from its fields.
    public init(
        version: Int32,
        previousBlockHash: Hash256,
        merkleRoot: Hash256,
        time: UInt32,
        bits: UInt32,
        nonce: UInt32
    ) {
        self.version = version
        self.previousBlockHash = previousBlockHash
        self.merkleRoot = merkleRoot
        self.time = time
        self.bits = bits
        self.nonce = nonce
    }

    /// Parses exactly 80 bytes; any other length is ``ByteDecodingError/wrongLength(field:expected:actual:)``.
    public init(bytes: [UInt8]) throws(ByteDecodingError) {
        guard bytes.count == Self.serializedSize else {
            throw .wrongLength(field: "block header", expected: Self.serializedSize, actual: bytes.count)
        }
        var reader = ByteReader(bytes)
        try self.init(from: &reader)
    }

    /// Parses the hex form of an 80-byte header (either case), as `getblockheader <hash> false` returns it.
    public init(hex: some StringProtocol) throws(ByteDecodingError) {
        guard let bytes = Hex.decode(hex) else { throw .invalidHex }
        try self.init(bytes: bytes)
    }

    /// Reads 80 bytes from `reader` (the start of a serialized block).
    public init(from reader: inout ByteReader) throws(ByteDecodingError) {
        version = try reader.readInt32("block header version")
        previousBlockHash = try Self.readHash(&reader, "block header previous block hash")
        merkleRoot = try Self.readHash(&reader, "block header merkle root")
        time = try reader.readUInt32("block header time")
        bits = try reader.readUInt32("block header bits")
        nonce = try reader.readUInt32("block header nonce")
    }

    /// The 80 serialized bytes.
    public func serialized() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.serializedSize)
        write(to: &writer)
        return writer.bytes
    }

    /// Appends the 80 serialized bytes to `writer`.
    public func write(to writer: inout ByteWriter) {
        writer.writeInt32(version)
        writer.writeBytes(previousBlockHash.bytes)
        writer.writeBytes(merkleRoot.bytes)
        writer.writeUInt32(time)
        writer.writeUInt32(bits)
        writer.writeUInt32(nonce)
    }

    /// The block hash: the double SHA-256 of the 80 bytes (display it with `displayHex`).
    public var hash: Hash256 { Hash256(hashing: serialized()) }

    /// ``bits`` as Core prints it: 8 lower-case hex digits, most significant first (`"1d00ffff"`).
    public var bitsHex: String {
        Hex.encode([UInt8(bits >> 24), UInt8(bits >> 16 & 0xff), UInt8(bits >> 8 & 0xff), UInt8(bits & 0xff)])
    }

    private static func readHash(_ reader: inout ByteReader, _ field: String) throws(ByteDecodingError) -> Hash256 {
        let raw = try reader.readBytes(32, field)
        guard let hash = Hash256(bytes: raw) else {
            throw .wrongLength(field: field, expected: 32, actual: raw.count)
        }
        return hash
    }
}

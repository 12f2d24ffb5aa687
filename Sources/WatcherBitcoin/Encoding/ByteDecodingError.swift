/// Why bytes could not be decoded as a Bitcoin consensus structure.
///
/// Every case that comes from a ``ByteReader`` carries the offset in the whole buffer where the
/// problem starts (for a transaction inside a block, the offset in the block), and the cases that
/// concern one field name it (`"input 2 scriptSig"`, `"block header"`).
public enum ByteDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes ended inside `field`: it needed `needed` bytes at `offset`, and only `available` were left.
    case truncated(field: String, offset: Int, needed: Int, available: Int)
    /// The CompactSize for `field` at `offset` used a wider form than `value` needs (Bitcoin Core rejects it).
    case nonCanonicalCompactSize(field: String, offset: Int, value: UInt64)
    /// The count for `field` at `offset` is more than the remaining bytes could hold (`limit` at most).
    case countTooLarge(field: String, offset: Int, count: UInt64, limit: Int)
    /// A complete structure ended at `offset`, but `count` more bytes followed it.
    case trailingBytes(offset: Int, count: Int)
    /// The segwit marker at `offset` was followed by a flag byte other than 1 (BIP144 defines only bit 0).
    case unknownSegwitFlag(offset: Int, flag: UInt8)
    /// The segwit flag was set, but every witness stack was empty (ending at `offset`); Bitcoin Core rejects this.
    case superfluousWitness(offset: Int)
    /// The text was not hex: an odd length or a character outside `0-9a-fA-F`.
    case invalidHex
    /// `field` must be exactly `expected` bytes long but was `actual`.
    case wrongLength(field: String, expected: Int, actual: Int)

    /// A one-line English description naming the field and the offset.
    public var description: String {
        switch self {
        case .truncated(let field, let offset, let needed, let available):
            "\(field) truncated at offset \(offset): needs \(needed) bytes, \(available) left"
        case .nonCanonicalCompactSize(let field, let offset, let value):
            "\(field) at offset \(offset): non-canonical CompactSize for \(value)"
        case .countTooLarge(let field, let offset, let count, let limit):
            "\(field) at offset \(offset): count \(count) exceeds what the remaining bytes can hold (\(limit))"
        case .trailingBytes(let offset, let count):
            "\(count) trailing bytes after offset \(offset)"
        case .unknownSegwitFlag(let offset, let flag):
            "unknown segwit flag \(flag) at offset \(offset)"
        case .superfluousWitness(let offset):
            "segwit flag set but every witness is empty (ending at offset \(offset))"
        case .invalidHex:
            "not hex: odd length or a non-hex character"
        case .wrongLength(let field, let expected, let actual):
            "\(field) must be \(expected) bytes, got \(actual)"
        }
    }
}

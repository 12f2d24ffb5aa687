/// A reference to one output of an earlier transaction: its txid and output index.
public struct OutPoint: Sendable, Hashable, CustomStringConvertible {
    /// The serialized size of an outpoint: a 32-byte txid and a 4-byte index.
    public static let serializedSize = 36

    /// The outpoint of a coinbase input: the zero txid and index `0xffffffff`.
    public static let null = OutPoint(txid: .zero, vout: .max)

    /// The txid of the transaction that made the output.
    public var txid: Hash256
    /// The index of the output in that transaction.
    public var vout: UInt32

    /// An outpoint for output `vout` of `txid`.
    public init(txid: Hash256, vout: UInt32) {
        self.txid = txid
        self.vout = vout
    }

    /// An outpoint from a txid in display form; `nil` if `txid` is not 64 hex characters.
    public init?(txid: some StringProtocol, vout: UInt32) {
        guard let hash = Hash256(displayHex: txid) else { return nil }
        self.init(txid: hash, vout: vout)
    }

    /// Reads 36 bytes: the txid in internal order and a little-endian index.
    public init(from reader: inout ByteReader, field: @autoclosure () -> String) throws(ByteDecodingError) {
        let raw = try reader.readBytes(32, "\(field()) prevout txid")
        guard let txid = Hash256(bytes: raw) else {
            throw .wrongLength(field: "\(field()) prevout txid", expected: 32, actual: raw.count)
        }
        self.txid = txid
        self.vout = try reader.readUInt32("\(field()) prevout vout")
    }

    /// `true` for the coinbase marker ``null``.
    public var isNull: Bool { vout == .max && txid.isZero }

    /// `txid:vout`, with the txid in display form.
    public var description: String { "\(txid.displayHex):\(vout)" }

    /// Appends the 36-byte serialization.
    public func write(to writer: inout ByteWriter) {
        writer.writeBytes(txid.bytes)
        writer.writeUInt32(vout)
    }
}

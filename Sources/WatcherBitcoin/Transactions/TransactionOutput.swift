/// One output of a transaction: an amount in satoshi and the scriptPubKey that locks it.
public struct TransactionOutput: Sendable, Hashable {
    /// The smallest serialized output: an 8-byte value and an empty script's length byte.
    public static let minimumSerializedSize = 8 + 1

    /// The amount in satoshi (1 BTC = 100,000,000), as serialized: a signed 64-bit integer, never a float.
    public var value: Int64
    /// The scriptPubKey bytes.
    public var scriptPubKey: [UInt8]

    /// An output paying `value` satoshi to `scriptPubKey`.
    public init(value: Int64, scriptPubKey: [UInt8]) {
        self.value = value
        self.scriptPubKey = scriptPubKey
    }

    /// Reads a little-endian 8-byte value and a length-prefixed script.
    public init(from reader: inout ByteReader, field: @autoclosure () -> String) throws(ByteDecodingError) {
        value = try reader.readInt64("\(field()) value")
        scriptPubKey = try reader.readVarBytes("\(field()) scriptPubKey")
    }

    /// Appends the value and the length-prefixed script.
    public func write(to writer: inout ByteWriter) {
        writer.writeInt64(value)
        writer.writeVarBytes(scriptPubKey)
    }
}

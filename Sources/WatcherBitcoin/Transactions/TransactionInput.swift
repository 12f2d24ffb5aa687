/// One input of a transaction: the output it spends, its scriptSig, sequence and witness stack.
public struct TransactionInput: Sendable, Hashable {
    /// The smallest serialized input without witness: outpoint, an empty script's length byte, and sequence.
    public static let minimumSerializedSize = OutPoint.serializedSize + 1 + 4

    /// The sequence that marks an input final (no relative lock time, no replace-by-fee signal).
    public static let finalSequence: UInt32 = 0xffff_ffff

    /// The output this input spends (``OutPoint/null`` for a coinbase).
    public var previousOutput: OutPoint
    /// The scriptSig bytes (for a coinbase, arbitrary data starting with the height).
    public var scriptSig: [UInt8]
    /// The sequence number.
    public var sequence: UInt32
    /// The witness stack (BIP141), bottom item first; empty for a legacy input.
    public var witness: [[UInt8]]

    /// An input spending `previousOutput`.
    public init(
        previousOutput: OutPoint,
        scriptSig: [UInt8] = [],
        sequence: UInt32 = TransactionInput.finalSequence,
        witness: [[UInt8]] = []
    ) {
        self.previousOutput = previousOutput
        self.scriptSig = scriptSig
        self.sequence = sequence
        self.witness = witness
    }

    /// Reads the outpoint, scriptSig and sequence (the witness is read separately, after all outputs).
    public init(from reader: inout ByteReader, field: @autoclosure () -> String) throws(ByteDecodingError) {
        previousOutput = try OutPoint(from: &reader, field: field())
        scriptSig = try reader.readVarBytes("\(field()) scriptSig")
        sequence = try reader.readUInt32("\(field()) sequence")
        witness = []
    }

    /// Appends the outpoint, scriptSig and sequence (never the witness).
    public func write(to writer: inout ByteWriter) {
        previousOutput.write(to: &writer)
        writer.writeVarBytes(scriptSig)
        writer.writeUInt32(sequence)
    }

    /// Reads a witness stack: a CompactSize item count, then each item with its length.
    public static func readWitness(
        from reader: inout ByteReader,
        field: @autoclosure () -> String
    ) throws(ByteDecodingError) -> [[UInt8]] {
        let count = try reader.readCount("\(field()) witness item count", minimumElementSize: 1)
        var stack: [[UInt8]] = []
        stack.reserveCapacity(count)
        for index in 0..<count {
            stack.append(try reader.readVarBytes("\(field()) witness item \(index)"))
        }
        return stack
    }

    /// Appends this input's witness stack: the item count, then each item with its length.
    public func writeWitness(to writer: inout ByteWriter) {
        writer.writeCompactSize(witness.count)
        for item in witness {
            writer.writeVarBytes(item)
        }
    }
}

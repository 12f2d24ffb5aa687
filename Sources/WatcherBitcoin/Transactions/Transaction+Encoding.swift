extension Transaction {
    /// Reads one transaction from `reader`, leaving it just after the lock time.
    ///
    /// Errors carry offsets in the reader's whole buffer, so a transaction inside a block reports
    /// where in the block it failed.
    public init(from reader: inout ByteReader) throws(ByteDecodingError) {
        version = try reader.readInt32("version")
        var flag: UInt8 = 0
        var inputCount = try reader.readCount(
            "input count",
            minimumElementSize: TransactionInput.minimumSerializedSize
        )
        var readBody = true
        if inputCount == 0 {
            // Either the BIP144 marker or a real empty input list: the next byte decides (Core's rule).
            let flagOffset = reader.offset
            flag = try reader.readUInt8("segwit flag")
            guard flag & ~1 == 0 else { throw .unknownSegwitFlag(offset: flagOffset, flag: flag) }
            if flag != 0 {
                inputCount = try reader.readCount(
                    "input count",
                    minimumElementSize: TransactionInput.minimumSerializedSize
                )
            } else {
                readBody = false
            }
        }
        inputs = []
        outputs = []
        if readBody {
            inputs.reserveCapacity(inputCount)
            for index in 0..<inputCount {
                inputs.append(try TransactionInput(from: &reader, field: "input \(index)"))
            }
            let outputCount = try reader.readCount(
                "output count",
                minimumElementSize: TransactionOutput.minimumSerializedSize
            )
            outputs.reserveCapacity(outputCount)
            for index in 0..<outputCount {
                outputs.append(try TransactionOutput(from: &reader, field: "output \(index)"))
            }
        }
        if flag == 1 {
            for index in inputs.indices {
                inputs[index].witness = try TransactionInput.readWitness(from: &reader, field: "input \(index)")
            }
            guard inputs.contains(where: { !$0.witness.isEmpty }) else {
                throw .superfluousWitness(offset: reader.offset)
            }
        }
        lockTime = try reader.readUInt32("lock time")
    }

    /// The serialized transaction: the BIP144 form when `withWitness` is `true` and some input has a
    /// witness, otherwise the legacy form (which is what the txid hashes).
    public func serialized(withWitness: Bool = true) -> [UInt8] {
        var writer = ByteWriter(capacity: 256)
        write(to: &writer, withWitness: withWitness)
        return writer.bytes
    }

    /// Appends the serialization to `writer` (see ``serialized(withWitness:)``).
    public func write(to writer: inout ByteWriter, withWitness: Bool = true) {
        let segwit = withWitness && hasWitness
        writer.writeInt32(version)
        if segwit {
            writer.writeUInt8(0)
            writer.writeUInt8(1)
        }
        writer.writeCompactSize(inputs.count)
        for input in inputs {
            input.write(to: &writer)
        }
        writer.writeCompactSize(outputs.count)
        for output in outputs {
            output.write(to: &writer)
        }
        if segwit {
            for input in inputs {
                input.writeWitness(to: &writer)
            }
        }
        writer.writeUInt32(lockTime)
    }

    /// The serialization as lower-case hex, as `getrawtransaction` prints it.
    public func hex(withWitness: Bool = true) -> String {
        Hex.encode(serialized(withWitness: withWitness))
    }
}

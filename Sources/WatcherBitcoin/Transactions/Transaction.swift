/// A Bitcoin transaction as it is serialized on the wire and in blocks.
///
/// Parses and writes both the legacy form and the BIP144 segwit form (marker `0x00`, flag `0x01`,
/// witness stacks after the outputs), following Bitcoin Core's rules: a segwit flag with every witness
/// empty, an unknown flag bit, a non-canonical CompactSize, trailing bytes and truncation are errors.
///
/// A transaction with no inputs is ambiguous in this encoding (Core's own round trip fails for it
/// when it has outputs); every real transaction has at least one input.
public struct Transaction: Sendable, Hashable {
    /// The smallest serialized transaction: version, two empty counts, lock time.
    public static let minimumSerializedSize = 4 + 1 + 1 + 4

    /// The transaction version (signed, as Core prints it).
    public var version: Int32
    /// The inputs, in order.
    public var inputs: [TransactionInput]
    /// The outputs, in order; an output's index is its `vout`.
    public var outputs: [TransactionOutput]
    /// The lock time: a block height below 500,000,000, a Unix time from there on.
    public var lockTime: UInt32

    /// A transaction from its parts.
    public init(version: Int32, inputs: [TransactionInput], outputs: [TransactionOutput], lockTime: UInt32) {
        self.version = version
        self.inputs = inputs
        self.outputs = outputs
        self.lockTime = lockTime
    }

    /// Parses exactly one serialized transaction (legacy or BIP144); extra bytes after it are an error.
    public init(bytes: [UInt8]) throws(ByteDecodingError) {
        var reader = ByteReader(bytes)
        try self.init(from: &reader)
        try reader.expectEnd()
    }

    /// Parses the hex form of one serialized transaction (either case), as `getrawtransaction` returns it.
    public init(hex: some StringProtocol) throws(ByteDecodingError) {
        guard let bytes = Hex.decode(hex) else { throw .invalidHex }
        try self.init(bytes: bytes)
    }

    /// `true` if any input has a non-empty witness stack, so the full serialization uses the segwit form.
    public var hasWitness: Bool { inputs.contains { !$0.witness.isEmpty } }

    /// `true` for a coinbase: exactly one input, spending the null outpoint.
    public var isCoinbase: Bool { inputs.count == 1 && inputs[0].previousOutput.isNull }

    /// The txid: the double SHA-256 of the serialization without witness (display it with `displayHex`).
    public var txid: Hash256 { Hash256(hashing: serialized(withWitness: false)) }

    /// The wtxid (Core's `hash`): the double SHA-256 of the full serialization; the txid when there is no witness.
    public var wtxid: Hash256 { Hash256(hashing: serialized(withWitness: true)) }

    /// The full serialized size in bytes, witness included (Core's `size`).
    public var size: Int { serialized(withWitness: true).count }

    /// The size without witness data, marker or flag (a block's `strippedsize` adds these up).
    public var strippedSize: Int { serialized(withWitness: false).count }

    /// The weight (BIP141): the stripped size times 3 plus the full size.
    public var weight: Int { strippedSize * 3 + size }

    /// The virtual size: the weight divided by 4, rounded up (Core's `vsize`).
    public var vsize: Int { (weight + 3) / 4 }

    /// The total of the output values in satoshi; `nil` if the sum overflows `Int64`.
    public var totalOutputValue: Int64? {
        var total: Int64 = 0
        for output in outputs {
            let (sum, overflow) = total.addingReportingOverflow(output.value)
            if overflow { return nil }
            total = sum
        }
        return total
    }
}

/// A whole serialized block: the 80-byte header, a CompactSize transaction count, and the transactions.
public struct RawBlock: Sendable, Hashable {
    /// The header.
    public var header: RawBlockHeader
    /// The transactions, the coinbase first.
    public var transactions: [Transaction]

    /// A block from its header and transactions.
    public init(header: RawBlockHeader, transactions: [Transaction]) {
        self.header = header
        self.transactions = transactions
    }

    /// Parses exactly one serialized block, as `getblock <hash> 0` returns it; trailing bytes are an error.
    ///
    /// This checks the encoding only: call ``hasValidMerkleRoot`` to check the transactions against the header.
    public init(bytes: [UInt8]) throws(ByteDecodingError) {
        var reader = ByteReader(bytes)
        try self.init(from: &reader)
        try reader.expectEnd()
    }

    /// Parses the hex form of one serialized block (either case).
    public init(hex: some StringProtocol) throws(ByteDecodingError) {
        guard let bytes = Hex.decode(hex) else { throw .invalidHex }
        try self.init(bytes: bytes)
    }

    /// Reads one block from `reader`, leaving it just after the last transaction.
    public init(from reader: inout ByteReader) throws(ByteDecodingError) {
        header = try RawBlockHeader(from: &reader)
        let count = try reader.readCount(
            "transaction count",
            minimumElementSize: Transaction.minimumSerializedSize
        )
        transactions = []
        transactions.reserveCapacity(count)
        for _ in 0..<count {
            transactions.append(try Transaction(from: &reader))
        }
    }

    /// The serialized block, with witness data.
    public func serialized() -> [UInt8] {
        var writer = ByteWriter(capacity: RawBlockHeader.serializedSize + 1 + 256 * transactions.count)
        write(to: &writer, withWitness: true)
        return writer.bytes
    }

    /// Appends the block to `writer`, the transactions with or without their witness data.
    public func write(to writer: inout ByteWriter, withWitness: Bool) {
        header.write(to: &writer)
        writer.writeCompactSize(transactions.count)
        for transaction in transactions {
            transaction.write(to: &writer, withWitness: withWitness)
        }
    }

    /// The block hash: the hash of its header.
    public var hash: Hash256 { header.hash }

    /// The txids in block order.
    public var txids: [Hash256] { transactions.map(\.txid) }

    /// The merkle root of the transactions' txids, computed from the transactions.
    public var computedMerkleRoot: Hash256 { MerkleRoot.compute(txids) }

    /// `true` if the header's merkle root is that of the transactions and the tree is not mutated
    /// (no repeated transactions that leave the root unchanged, see ``MerkleRoot/isMutated(_:)``).
    public var hasValidMerkleRoot: Bool {
        let ids = txids
        return MerkleRoot.compute(ids) == header.merkleRoot && !MerkleRoot.isMutated(ids)
    }

    /// The full serialized size in bytes (Core's `size`).
    public var size: Int { serialized().count }

    /// The size without any witness data (Core's `strippedsize`).
    public var strippedSize: Int {
        var writer = ByteWriter()
        write(to: &writer, withWitness: false)
        return writer.bytes.count
    }

    /// The block weight (BIP141): the stripped size times 3 plus the full size.
    public var weight: Int { strippedSize * 3 + size }
}

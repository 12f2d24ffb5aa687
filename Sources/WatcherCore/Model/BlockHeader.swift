import Foundation

/// A block's position in the chain: height and hash. The unit of tip probes and reorg detection.
public struct BlockRef: Sendable, Hashable, Codable {
    /// The height.
    public var height: Int
    /// The 64-hex block hash.
    public var hash: String

    /// Creates a reference.
    public init(height: Int, hash: String) {
        self.height = height
        self.hash = hash
    }
}

/// A block header as the explorer commands show it and `block.new` events carry it.
public struct BlockHeader: Sendable, Hashable, Codable {
    /// The 64-hex block hash.
    public var hash: String
    /// The height.
    public var height: Int
    /// The block time.
    public var time: Date
    /// The merkle root, hex.
    public var merkleRoot: String
    /// The header nonce.
    public var nonce: UInt32
    /// How many transactions the block holds; `nil` where the provider cannot tell (an Electrum server serves
    /// headers only): unknown is not 0.
    public var txCount: Int?
    /// The previous block's hash; `nil` for the genesis block or when the provider omits it.
    public var previousHash: String?

    /// Creates a header.
    public init(
        hash: String,
        height: Int,
        time: Date,
        merkleRoot: String,
        nonce: UInt32,
        txCount: Int?,
        previousHash: String?
    ) {
        self.hash = hash
        self.height = height
        self.time = time
        self.merkleRoot = merkleRoot
        self.nonce = nonce
        self.txCount = txCount
        self.previousHash = previousHash
    }

    /// The height and hash.
    public var ref: BlockRef { BlockRef(height: height, hash: hash) }
}

import WatcherBitcoin
import WatcherCore

/// A simulated block: its real 80-byte header plus the ids of its transactions (coinbase first). The hash is the
/// double SHA-256 of the header, the merkle root that of the txids; proof of work is regtest's (bits `207fffff`).
public struct SimBlock: Sendable, Hashable {
    /// The height.
    public let height: Int
    /// The block hash (64 hex characters).
    public let hash: String
    /// The parent block's hash.
    public let previousBlockHash: String
    /// The merkle root (64 hex characters).
    public let merkleRoot: String
    /// The header nonce.
    public let nonce: UInt32
    /// The compact difficulty target, as 8 hex characters.
    public let bits: String
    /// The difficulty as Bitcoin Core prints it.
    public let difficulty: String
    /// The header version.
    public let version: Int32
    /// The header time (unix seconds).
    public let time: Int64
    /// The serialized size in bytes.
    public let size: Int
    /// The serialized size without witness data (Core's `strippedsize`).
    public let strippedSize: Int
    /// The 80-byte header.
    public let header: RawBlockHeader
    /// The transaction ids, coinbase first.
    public let txids: [String]

    /// BIP141 weight.
    public var weight: Int { strippedSize * 3 + size }

    /// The number of transactions.
    public var txCount: Int { txids.count }

    /// The height and hash, as the control API reports a block.
    public var ref: BlockRef { BlockRef(height: height, hash: hash) }
}

/// One height replaced by a reorg, with the hash before and after.
public struct ReorgedBlock: Sendable, Hashable, Codable {
    /// The height.
    public let height: Int
    /// The hash of the block that was disconnected.
    public let oldHash: String
    /// The hash of the block on the new branch.
    public let newHash: String
}

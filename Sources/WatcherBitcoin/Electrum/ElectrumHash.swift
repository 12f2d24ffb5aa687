import Crypto

/// The Electrum protocol's two hashes: the script hash that names an address, and the status that summarises its
/// history (`protocol-basics.rst`, "Script Hashes" and "Status").
public enum ElectrumHash {
    /// One history entry as the status hashes it: a txid and its height (`> 0` confirmed, `0` in the mempool with
    /// confirmed inputs, `-1` in the mempool with unconfirmed parents).
    public struct Entry: Sendable, Hashable {
        /// The txid, display order (64 hex digits).
        public var txHash: String
        /// The height.
        public var height: Int

        /// Creates an entry.
        public init(txHash: String, height: Int) {
            self.txHash = txHash
            self.height = height
        }
    }

    /// `hex(reverse(sha256(scriptPubKey)))`: the name a server indexes an output script by.
    public static func scripthash(scriptPubKey: [UInt8]) -> String {
        Hex.encode(SHA256.hash(data: scriptPubKey).reversed())
    }

    /// The status of a history: sha256 of the concatenated `"<txid>:<height>:"`, lower-case hex; `nil` for an empty
    /// history. `history` must already be in status order (see ``statusOrder(confirmed:mempool:)``).
    public static func status(_ history: [Entry]) -> String? {
        guard !history.isEmpty else { return nil }
        var preimage: [UInt8] = []
        for entry in history {
            preimage += Array("\(entry.txHash):\(entry.height):".utf8)
        }
        return Hex.encode(Array(SHA256.hash(data: preimage)))
    }

    /// Status order: the confirmed entries as given (by height, then position in the block), then the mempool
    /// entries by `(-height, txid)`: those with confirmed inputs (height 0) before those with unconfirmed parents.
    public static func statusOrder(confirmed: [Entry], mempool: [Entry]) -> [Entry] {
        confirmed + mempool.sorted { ($0.height == $1.height) ? $0.txHash < $1.txHash : $0.height > $1.height }
    }
}

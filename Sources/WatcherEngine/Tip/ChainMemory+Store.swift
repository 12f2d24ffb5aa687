import WatcherCore
import WatcherRules
import WatcherStorage

/// Loading and saving a ``ChainMemory``: the tip in `tips`, headers in `headers`, hashes in `meta`'s ancestry keys.
extension ChainMemory {
    /// The memory of `chain` as stored.
    static func load<T>(_ txn: StoreTransaction<T>, chain: String) throws -> ChainMemory {
        var memory = ChainMemory(
            tip: try txn.tip(chain: chain),
            headers: try txn.recentHeaders(chain: chain, limit: .max)
        )
        for (height, hash) in try txn.blockHashes(chain: chain) where memory.hashes[height] == nil {
            memory.hashes[height] = hash
        }
        return memory
    }

    /// Writes what changed from `old` to this memory.
    func save(_ txn: StoreTransaction<WriteTransaction>, chain: String, replacing old: ChainMemory) throws {
        for height in old.headers.keys where headers[height] != old.headers[height] {
            try txn.removeHeader(chain: chain, height: height)
        }
        for (height, header) in headers where old.headers[height] != header {
            try txn.putHeader(chain: chain, header, keep: .max)
        }
        for height in old.hashes.keys where hashes[height] != old.hashes[height] {
            try txn.removeBlockHash(chain: chain, height: height)
        }
        for (height, hash) in hashes where old.hashes[height] != hash {
            try txn.putBlockHash(chain: chain, height: height, hash: hash)
        }
        if let tip, tip != old.tip { try txn.setTip(chain: chain, tip) }
    }
}

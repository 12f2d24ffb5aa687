import Foundation
import WatcherCore

/// The chain memory beyond the header window: main-chain block hashes by height, kept in `meta` under
/// `ancestry/<chain>/<height:u32>` so the fork walk can compare heights older than `storage.keepHeaders`.
extension StoreTransaction {
    static func ancestryPrefix(_ chain: String) -> [UInt8] { Array("ancestry/\(chain)/".utf8) }

    static func ancestryKey(_ chain: String, _ height: Int) -> [UInt8] {
        ancestryPrefix(chain) + UInt32(clamping: height).bigEndianBytes
    }

    /// Remembered main-chain block hashes of `chain`, by height.
    public func blockHashes(chain: String) throws -> [Int: String] {
        let prefix = Self.ancestryPrefix(chain)
        var result: [Int: String] = [:]
        for (key, value) in try txn.entries(tables.meta, prefix: prefix, reverse: false, limit: .max) {
            guard let height = UInt32(bigEndianBytes: Array(key.dropFirst(prefix.count))) else { continue }
            result[Int(height)] = String(decoding: value, as: UTF8.self)
        }
        return result
    }
}

extension StoreTransaction where Txn == WriteTransaction {
    /// Remembers the main-chain hash at `height`.
    public func putBlockHash(chain: String, height: Int, hash: String) throws {
        try txn.put(tables.meta, Self.ancestryKey(chain, height), Array(hash.utf8))
    }

    /// Forgets the hash remembered at `height`.
    public func removeBlockHash(chain: String, height: Int) throws {
        try txn.delete(tables.meta, Self.ancestryKey(chain, height))
    }

    /// Removes the stored header at `height`.
    public func removeHeader(chain: String, height: Int) throws {
        try txn.delete(tables.headers, Keys.header(chain, height))
    }
}

import CLMDB

/// A write transaction, valid only inside a ``StorageWriter/write(_:)`` closure, on the writer thread.
public struct WriteTransaction: TransactionReading {
    public let txn: OpaquePointer

    /// Stores `value` under `key`, replacing any existing value.
    /// - Parameter append: the key is known to sort after every existing key (`MDB_APPEND`, faster for logs).
    public func put(_ db: Database, _ key: [UInt8], _ value: [UInt8], append: Bool = false) throws {
        try key.withUnsafeBytes { keyBytes in
            try value.withUnsafeBytes { valueBytes in
                try put(db, key: keyBytes, value: valueBytes, flags: append ? UInt32(MDB_APPEND) : 0)
            }
        }
    }

    /// Stores `value` under a fixed-width big-endian integer key (sequence numbers, heights) without allocating
    /// the key.
    /// - Parameter append: the key sorts after every existing key (`MDB_APPEND`).
    @inlinable
    public func put<Key: FixedWidthInteger>(_ db: Database, integerKey key: Key, _ value: [UInt8], append: Bool = false)
        throws
    {
        var bigEndian = key.bigEndian
        try withUnsafeBytes(of: &bigEndian) { keyBytes in
            try value.withUnsafeBytes { valueBytes in
                try put(db, key: keyBytes, value: valueBytes, flags: append ? UInt32(MDB_APPEND) : 0)
            }
        }
    }

    /// Stores `value` under `key` only if the key is absent.
    /// - Returns: `false` when the key already existed (nothing was written).
    public func insert(_ db: Database, _ key: [UInt8], _ value: [UInt8]) throws -> Bool {
        do {
            try key.withUnsafeBytes { keyBytes in
                try value.withUnsafeBytes { valueBytes in
                    try put(db, key: keyBytes, value: valueBytes, flags: UInt32(MDB_NOOVERWRITE))
                }
            }
            return true
        } catch let error as LMDBError where error.code == MDB_KEYEXIST {
            return false
        }
    }

    /// Stores raw bytes without copying them first.
    @inlinable
    public func put(
        _ db: Database,
        key: UnsafeRawBufferPointer,
        value: UnsafeRawBufferPointer,
        flags: UInt32 = 0
    ) throws(LMDBError) {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_put(txn, db.dbi, &k, &v, flags)
        if rc != 0 { throw Self.putError(rc, db) }
    }

    @usableFromInline
    static func putError(_ rc: Int32, _ db: Database) -> LMDBError {
        LMDBError(
            code: rc,
            operation: "mdb_put(\(db.name))",
            hint: rc == MDB_BAD_VALSIZE ? "keys are limited to 511 bytes" : nil
        )
    }

    /// Deletes `key`.
    /// - Returns: `false` when it was absent.
    @discardableResult
    public func delete(_ db: Database, _ key: [UInt8]) throws -> Bool {
        try key.withUnsafeBytes { keyBytes in
            var k = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            let rc = mdb_del(txn, db.dbi, &k, nil)
            if rc == MDB_NOTFOUND { return false }
            try LMDBError.check(rc, "mdb_del(\(db.name))")
            return true
        }
    }

    /// Deletes entries whose key starts with `prefix` (all when empty), from `start` on and before `end`.
    /// - Returns: how many were deleted.
    @discardableResult
    public func deleteAll(
        _ db: Database,
        prefix: [UInt8] = [],
        upTo end: [UInt8]? = nil,
        from start: [UInt8]? = nil
    ) throws -> Int {
        var keys: [[UInt8]] = []
        try scan(db, from: start, prefix: prefix) { key, _ in
            if let end, !key.lexicographicallyPrecedes(end) { return false }
            keys.append(Array(key))
            return true
        }
        for key in keys { try delete(db, key) }
        return keys.count
    }
}

import CLMDB

/// The read operations shared by read and write transactions.
///
/// Values passed to closures point into the memory map and are valid only inside the closure.
public protocol TransactionReading {
    /// The underlying `MDB_txn*`.
    var txn: OpaquePointer { get }
}

/// A read-only transaction, valid only inside ``Environment/read(_:)``.
public struct ReadTransaction: TransactionReading {
    public let txn: OpaquePointer
}

extension TransactionReading {
    /// Calls `body` with the value stored under `key`, without copying it.
    /// - Returns: `body`'s result, or `nil` when the key is absent.
    public func withValue<T>(
        _ db: Database,
        _ key: [UInt8],
        _ body: (UnsafeRawBufferPointer) throws -> T
    ) throws -> T? {
        try key.withUnsafeBytes { keyBytes in
            var k = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            var v = MDB_val()
            let rc = mdb_get(txn, db.dbi, &k, &v)
            if rc == MDB_NOTFOUND { return nil }
            try LMDBError.check(rc, "mdb_get(\(db.name))")
            return try body(UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size))
        }
    }

    /// The value stored under `key`, copied out; `nil` when absent.
    public func get(_ db: Database, _ key: [UInt8]) throws -> [UInt8]? {
        try withValue(db, key) { Array($0) }
    }

    /// Visits entries in key order (or reverse order) starting at the first key `>= start` (or `<= start` when
    /// reversed), while the key begins with `prefix` and `body` returns `true`.
    /// - Parameters:
    ///   - db: the database.
    ///   - start: where to position; defaults to `prefix`, or the first/last key.
    ///   - prefix: stop at the first key without this prefix.
    ///   - reverse: walk from high keys to low.
    ///   - body: receives borrowed key and value bytes; return `false` to stop.
    public func scan(
        _ db: Database,
        from start: [UInt8]? = nil,
        prefix: [UInt8] = [],
        reverse: Bool = false,
        _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        let cursor = try Cursor(txn: txn, db: db)
        defer { cursor.close() }
        var entry: Cursor.Entry?
        if !reverse {
            let position = start ?? prefix
            entry = try position.isEmpty ? cursor.move(MDB_FIRST) : cursor.seek(atLeast: position)
        } else if let bound = start ?? Self.successor(of: prefix) {
            // Position at the last key <= start (or < the prefix's successor).
            entry = try cursor.seek(atLeast: bound)
            if let found = entry {
                if start == nil || !found.key.elementsEqual(bound) { entry = try cursor.move(MDB_PREV) }
            } else {
                entry = try cursor.move(MDB_LAST)
            }
        } else {
            entry = try cursor.move(MDB_LAST)
        }
        while let current = entry {
            if !prefix.isEmpty, !current.key.starts(with: prefix) { return }
            guard try body(current.key, current.value) else { return }
            entry = try cursor.move(reverse ? MDB_PREV : MDB_NEXT)
        }
    }

    /// The smallest key greater than every key with `prefix`; `nil` when there is none (empty or all 0xFF).
    static func successor(of prefix: [UInt8]) -> [UInt8]? {
        var bytes = prefix
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return bytes
            }
            bytes.removeLast()
        }
        return nil
    }

    /// Copies out up to `limit` entries; see ``scan(_:from:prefix:reverse:_:)``.
    public func entries(
        _ db: Database,
        from start: [UInt8]? = nil,
        prefix: [UInt8] = [],
        reverse: Bool = false,
        limit: Int = .max
    ) throws -> [(key: [UInt8], value: [UInt8])] {
        var result: [(key: [UInt8], value: [UInt8])] = []
        guard limit > 0 else { return result }
        try scan(db, from: start, prefix: prefix, reverse: reverse) { key, value in
            result.append((Array(key), Array(value)))
            return result.count < limit
        }
        return result
    }

    /// The last key in the database, copied out.
    public func lastKey(_ db: Database) throws -> [UInt8]? {
        let cursor = try Cursor(txn: txn, db: db)
        defer { cursor.close() }
        return try cursor.move(MDB_LAST).map { Array($0.key) }
    }

    /// The number of entries.
    public func count(_ db: Database) throws -> Int {
        var stat = MDB_stat()
        try LMDBError.check(mdb_stat(txn, db.dbi, &stat), "mdb_stat(\(db.name))")
        return stat.ms_entries
    }
}

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
    @inlinable
    public func scan(
        _ db: Database,
        from start: [UInt8]? = nil,
        prefix: [UInt8] = [],
        reverse: Bool = false,
        _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        var cursor: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(txn, db.dbi, &cursor), "mdb_cursor_open(\(db.name))")
        defer { mdb_cursor_close(cursor) }
        var k = MDB_val()
        var v = MDB_val()
        var rc = Self.position(cursor, &k, &v, start: start, prefix: prefix, reverse: reverse)
        let step = reverse ? MDB_PREV : MDB_NEXT
        while rc == 0 {
            let key = UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size)
            if !prefix.isEmpty, !key.starts(with: prefix) { return }
            guard try body(key, UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)) else { return }
            rc = mdb_cursor_get(cursor, &k, &v, step)
        }
        if rc != MDB_NOTFOUND { try LMDBError.check(rc, "mdb_cursor_get(\(db.name))") }
    }

    /// Positions a cursor for ``scan(_:from:prefix:reverse:_:)``; returns the `mdb_cursor_get` code.
    @usableFromInline
    static func position(
        _ cursor: OpaquePointer?,
        _ k: inout MDB_val,
        _ v: inout MDB_val,
        start: [UInt8]?,
        prefix: [UInt8],
        reverse: Bool
    ) -> Int32 {
        func seek(_ bound: [UInt8], _ k: inout MDB_val, _ v: inout MDB_val) -> Int32 {
            bound.withUnsafeBytes { bytes in
                k = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                return mdb_cursor_get(cursor, &k, &v, MDB_SET_RANGE)
            }
        }
        if !reverse {
            let position = start ?? prefix
            return position.isEmpty ? mdb_cursor_get(cursor, &k, &v, MDB_FIRST) : seek(position, &k, &v)
        }
        guard let bound = start ?? successor(of: prefix) else { return mdb_cursor_get(cursor, &k, &v, MDB_LAST) }
        // Position at the last key <= start (or < the prefix's successor).
        let rc = seek(bound, &k, &v)
        if rc == MDB_NOTFOUND { return mdb_cursor_get(cursor, &k, &v, MDB_LAST) }
        guard rc == 0 else { return rc }
        let exact = UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size).elementsEqual(bound)
        return start != nil && exact ? rc : mdb_cursor_get(cursor, &k, &v, MDB_PREV)
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

import CLMDB

/// An LMDB cursor, valid only inside the transaction that opened it.
struct Cursor {
    /// Borrowed key and value bytes, valid until the cursor moves or the transaction ends.
    struct Entry {
        let key: UnsafeRawBufferPointer
        let value: UnsafeRawBufferPointer
    }

    let handle: OpaquePointer
    let dbName: String

    init(txn: OpaquePointer, db: Database) throws(LMDBError) {
        var cursor: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(txn, db.dbi, &cursor), "mdb_cursor_open(\(db.name))")
        guard let cursor else { throw LMDBError(code: MDB_PANIC, operation: "mdb_cursor_open") }
        self.handle = cursor
        self.dbName = db.name
    }

    func close() { mdb_cursor_close(handle) }

    /// Moves with `MDB_FIRST`, `MDB_LAST`, `MDB_NEXT` or `MDB_PREV`; `nil` at either end.
    func move(_ op: MDB_cursor_op) throws(LMDBError) -> Entry? {
        var k = MDB_val()
        var v = MDB_val()
        return try get(&k, &v, op)
    }

    /// Positions at the first key `>= key` (`MDB_SET_RANGE`).
    func seek(atLeast key: [UInt8]) throws -> Entry? {
        var k = MDB_val()
        var v = MDB_val()
        return try key.withUnsafeBytes { bytes in
            k = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            return try get(&k, &v, MDB_SET_RANGE)
        }
    }

    private func get(_ k: inout MDB_val, _ v: inout MDB_val, _ op: MDB_cursor_op) throws(LMDBError) -> Entry? {
        let rc = mdb_cursor_get(handle, &k, &v, op)
        if rc == MDB_NOTFOUND { return nil }
        try LMDBError.check(rc, "mdb_cursor_get(\(dbName))")
        return Entry(
            key: UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size),
            value: UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
        )
    }
}

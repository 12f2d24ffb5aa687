import CLMDB

extension Environment {
    /// Runs `body` in a read-only transaction on the calling thread and ends it before returning.
    ///
    /// The closure is synchronous, so the transaction can never live across an `await`; copy what you need out
    /// of it. Readers use `MDB_NOTLS`, so any thread may read.
    /// - Throws: ``LMDBError``, or what `body` throws.
    public func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        while true {
            var resized = false
            let result: T? = try gate.shared {
                try checkOpen("mdb_txn_begin(read)")
                var txn: OpaquePointer?
                let rc = mdb_txn_begin(handle, nil, UInt32(MDB_RDONLY), &txn)
                if rc == MDB_MAP_RESIZED {
                    resized = true
                    return nil
                }
                try LMDBError.check(rc, "mdb_txn_begin(read)")
                guard let txn else { return nil }
                defer { mdb_txn_abort(txn) }
                return try body(ReadTransaction(txn: txn))
            }
            if let result { return result }
            if resized { try adoptResizedMap() }
        }
    }

    /// Runs `body` in a write transaction on the calling thread and commits it.
    ///
    /// If `body` throws, the transaction is aborted. If the map is full, the transaction is aborted, the map grows
    /// and `body` runs again from the start, so `body` must only act through the transaction.
    /// Only ``StorageWriter`` (one dedicated OS thread) and single-threaded tools call this.
    /// - Throws: ``LMDBError``, or what `body` throws.
    @available(*, noasync, message: "use StorageWriter.write from async code")
    package func writeSync<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        precondition(!options.readOnly, "write on a read-only environment")
        while true {
            do {
                return try gate.shared {
                    try checkOpen("mdb_txn_begin(write)")
                    var txn: OpaquePointer?
                    try LMDBError.check(mdb_txn_begin(handle, nil, 0, &txn), "mdb_txn_begin(write)")
                    guard let txn else { throw LMDBError(code: MDB_PANIC, operation: "mdb_txn_begin(write)") }
                    let result: T
                    do {
                        result = try body(WriteTransaction(txn: txn))
                    } catch {
                        mdb_txn_abort(txn)
                        throw error
                    }
                    try LMDBError.check(mdb_txn_commit(txn), "mdb_txn_commit")
                    return result
                }
            } catch let error as LMDBError where error.isMapFull {
                try growMap()
            } catch let error as LMDBError where error.isMapResized {
                try adoptResizedMap()
            }
        }
    }

    /// Opens named databases, creating the missing ones unless the environment is read-only.
    ///
    /// Call once at start-up, before other threads use the environment.
    /// - Throws: ``LMDBError``; ``StorageError/missingStore(path:)`` when read-only and a database is missing.
    @available(*, noasync)
    package func openDatabases(_ names: [String], optional: [String] = []) throws -> [String: Database] {
        var result: [String: Database] = [:]
        var missing: [String] = []
        try gate.shared {
            var txn: OpaquePointer?
            try LMDBError.check(mdb_txn_begin(handle, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin(open)")
            guard let txn else { return }
            for name in names + optional {
                var dbi: MDB_dbi = 0
                let rc = mdb_dbi_open(txn, name, 0, &dbi)
                if rc == MDB_NOTFOUND {
                    missing.append(name)
                    continue
                }
                if rc != 0 { mdb_txn_abort(txn) }
                try LMDBError.check(rc, "mdb_dbi_open(\(name))")
                result[name] = Database(name: name, dbi: dbi)
            }
            try LMDBError.check(mdb_txn_commit(txn), "mdb_txn_commit(open)")
        }
        if options.readOnly { missing.removeAll { optional.contains($0) } }
        if missing.isEmpty { return result }
        if options.readOnly { throw StorageError.missingStore(path: path) }
        let created = try writeSync { txn in
            try missing.map { name in
                var dbi: MDB_dbi = 0
                try LMDBError.check(mdb_dbi_open(txn.txn, name, UInt32(MDB_CREATE), &dbi), "mdb_dbi_open(\(name))")
                return Database(name: name, dbi: dbi)
            }
        }
        for db in created { result[db.name] = db }
        return result
    }
}

// Storage benchmark: the LMDB wrapper against the same pattern written directly against the C API, in one run.
//
//   swift run -c release watcher-bench [events] [batch] [runs]
//
// Patterns: (1) appending 256-byte events under big-endian u64 keys in batched commits, (2) range-scanning them
// (a full scan and 1,000-entry prefix windows). Each pattern runs `runs` times per side on a fresh environment; the
// median is reported. Commits run twice: durable (fsync per commit, the product's default) and with MDB_NOSYNC,
// which removes the disk so the wrapper's own CPU cost shows.
import CLMDB
import Foundation
import WatcherStorage

let arguments = CommandLine.arguments
let events = arguments.count > 1 ? Int(arguments[1]) ?? 200_000 : 200_000
let batch = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
let value = [UInt8](repeating: 0xAB, count: 256)

func freshEnvironment(sync: Bool) throws -> (Environment, Database, String) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-bench-\(UUID().uuidString)").path
    let env = try Environment(path: path, options: .init(mapSize: 1 << 30))
    if !sync { mdb_env_set_flags(env.rawHandle, UInt32(MDB_NOSYNC), 1) }
    let db = try env.openDatabases(["events"])["events"]!
    return (env, db, path)
}

func check(_ rc: Int32) {
    if rc != 0 { fatalError("LMDB: \(String(cString: mdb_strerror(rc)))") }
}

/// Raw C: begin, put with MDB_APPEND, commit, on the calling thread.
func rawAppend(_ env: Environment, _ db: Database) {
    var seq: UInt64 = 0
    var buffer = value
    for _ in 0..<(events / batch) {
        var txn: OpaquePointer?
        check(mdb_txn_begin(env.rawHandle, nil, 0, &txn))
        for _ in 0..<batch {
            seq += 1
            var key = seq.bigEndian
            withUnsafeMutableBytes(of: &key) { keyBytes in
                buffer.withUnsafeMutableBytes { valueBytes in
                    var k = MDB_val(mv_size: 8, mv_data: keyBytes.baseAddress)
                    var v = MDB_val(mv_size: valueBytes.count, mv_data: valueBytes.baseAddress)
                    check(mdb_put(txn, db.rawDBI, &k, &v, UInt32(MDB_APPEND)))
                }
            }
        }
        check(mdb_txn_commit(txn))
    }
}

/// The wrapper: each batch is one `StorageWriter.write` (a hop to the writer thread) with typed puts.
func wrapperAppend(_ writer: StorageWriter, _ db: Database) async throws {
    var seq: UInt64 = 0
    for _ in 0..<(events / batch) {
        let start = seq
        try await writer.write { txn in
            for i in 1...UInt64(batch) { try txn.put(db, integerKey: start + i, value, append: true) }
        }
        seq += UInt64(batch)
    }
}

func rawScan(_ env: Environment, _ db: Database, from: UInt64?, limit: Int) -> Int {
    var txn: OpaquePointer?
    check(mdb_txn_begin(env.rawHandle, nil, UInt32(MDB_RDONLY), &txn))
    defer { mdb_txn_abort(txn) }
    var cursor: OpaquePointer?
    check(mdb_cursor_open(txn, db.rawDBI, &cursor))
    defer { mdb_cursor_close(cursor) }
    var k = MDB_val()
    var v = MDB_val()
    var total = 0
    var count = 0
    var key = (from ?? 0).bigEndian
    var rc: Int32 = withUnsafeMutableBytes(of: &key) { bytes in
        if from == nil { return mdb_cursor_get(cursor, &k, &v, MDB_FIRST) }
        k = MDB_val(mv_size: 8, mv_data: bytes.baseAddress)
        return mdb_cursor_get(cursor, &k, &v, MDB_SET_RANGE)
    }
    while rc == 0, count < limit {
        total += v.mv_size + Int(UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size).last ?? 0)
        count += 1
        rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT)
    }
    return total
}

func wrapperScan(_ env: Environment, _ db: Database, from: UInt64?, limit: Int) throws -> Int {
    try env.read { txn in
        var total = 0
        var count = 0
        try txn.scan(db, from: from?.bigEndianBytes) { key, value in
            total += value.count + Int(key.last ?? 0)
            count += 1
            return count < limit
        }
        return total
    }
}

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func report(_ name: String, unit: String, work: Double, raw: [Double], wrapped: [Double]) {
    let rawRate = work / median(raw)
    let wrapRate = work / median(wrapped)
    let line = String(
        format: "%-34@ raw C %12.0f %@/s   wrapper %12.0f %@/s   wrapper/raw %5.1f%%",
        name as NSString,
        rawRate,
        unit as NSString,
        wrapRate,
        unit as NSString,
        wrapRate / rawRate * 100
    )
    print(line)
}

print("watcher storage benchmark: \(events) events of \(value.count) B, \(batch) per commit, median of \(runs) runs")
print(String(cString: mdb_version(nil, nil, nil)))
for sync in [false, true] {
    var raw: [Double] = []
    var wrapped: [Double] = []
    for _ in 0..<runs {
        let (env, db, path) = try freshEnvironment(sync: sync)
        raw.append(await seconds { rawAppend(env, db) })
        env.close()
        try? FileManager.default.removeItem(atPath: path)

        let (env2, db2, path2) = try freshEnvironment(sync: sync)
        let writer = StorageWriter(environment: env2)
        wrapped.append(try await seconds { try await wrapperAppend(writer, db2) })
        await writer.shutdown()
        env2.close()
        try? FileManager.default.removeItem(atPath: path2)
    }
    report(
        "append, batched commits (\(sync ? "fsync" : "nosync"))",
        unit: "ev",
        work: Double(events),
        raw: raw,
        wrapped: wrapped
    )
}

let (env, db, path) = try freshEnvironment(sync: false)
rawAppend(env, db)
var checksumRaw = 0
var checksumWrapped = 0
var rawFull: [Double] = []
var wrappedFull: [Double] = []
var rawWindows: [Double] = []
var wrappedWindows: [Double] = []
let windows = 1000
for _ in 0..<runs {
    rawFull.append(await seconds { checksumRaw = rawScan(env, db, from: nil, limit: .max) })
    wrappedFull.append(try await seconds { checksumWrapped = try wrapperScan(env, db, from: nil, limit: .max) })
    rawWindows.append(
        await seconds {
            for w in 0..<windows { checksumRaw &+= rawScan(env, db, from: UInt64(w * 97 % events) + 1, limit: 1000) }
        }
    )
    wrappedWindows.append(
        try await seconds {
            for w in 0..<windows {
                checksumWrapped &+= try wrapperScan(env, db, from: UInt64(w * 97 % events) + 1, limit: 1000)
            }
        }
    )
}
precondition(checksumRaw == checksumWrapped, "scans disagree")
report("full scan", unit: "ent", work: Double(events), raw: rawFull, wrapped: wrappedFull)
report(
    "range scans (1000 × 1,000 entries)",
    unit: "ent",
    work: Double(windows * 1000),
    raw: rawWindows,
    wrapped: wrappedWindows
)
env.close()
try? FileManager.default.removeItem(atPath: path)

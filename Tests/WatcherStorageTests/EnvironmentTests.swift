import CLMDB
import Foundation
import Testing
import WatcherTestSupport

@testable import WatcherStorage

/// The LMDB wrapper against real files.
struct EnvironmentTests {
    @Test func roundTripPutGetDelete() throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let env = try Environment(path: dir.storePath)
        let db = try #require(try env.openDatabases(["kv"])["kv"])
        try env.writeSync { txn throws in
            try txn.put(db, Array("a".utf8), Array("1".utf8))
            try txn.put(db, Array("b".utf8), Array("2".utf8))
            #expect(try txn.insert(db, Array("a".utf8), Array("x".utf8)) == false)
        }
        try env.read { txn throws in
            #expect(try txn.get(db, Array("a".utf8)) == Array("1".utf8))
            #expect(try txn.get(db, Array("missing".utf8)) == nil)
            #expect(try txn.count(db) == 2)
        }
        try env.writeSync { txn throws in
            #expect(try txn.delete(db, Array("a".utf8)))
            #expect(try txn.delete(db, Array("a".utf8)) == false)
        }
        #expect(try env.read { try $0.get(db, Array("a".utf8)) } == nil)
    }

    /// A CLI opening the store while a starting daemon has created `data.mdb` but not yet written its meta pages
    /// (0 bytes for a moment) took it for truncated: `watcher requests create` failed so in a gate run. The empty
    /// file is given a moment to be written; here a writer copies a real store's bytes into it 100 ms after it is
    /// found empty, and the open succeeds with the store's contents.
    @Test func anEmptyDataFileBeingWrittenIsWaitedForNotCalledTruncated() throws {
        let source = try TemporaryDirectory("lmdb-source")
        let target = try TemporaryDirectory("lmdb-target")
        defer {
            source.remove()
            target.remove()
        }
        do {
            let env = try Environment(path: source.storePath)
            let db = try #require(try env.openDatabases(["kv"])["kv"])
            try env.writeSync { txn throws in try txn.put(db, Array("k".utf8), Array("v".utf8)) }
            env.close()
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source.storePath + "/data.mdb"))
        try FileManager.default.createDirectory(atPath: target.storePath, withIntermediateDirectories: true)
        let file = target.storePath + "/data.mdb"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let writer = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            try? bytes.write(to: URL(fileURLWithPath: file))
        }
        writer.start()
        let env = try Environment(path: target.storePath, options: .init(readOnly: true))
        let db = try #require(try env.openDatabases(["kv"])["kv"])
        #expect(try env.read { try $0.get(db, Array("k".utf8)) } == Array("v".utf8))
        env.close()
    }

    /// A reader still running while the daemon stops (a sink's delivery worker) began a transaction on the closed
    /// environment and crashed the process in `mdb_txn_begin` (found by the oracle test through ElectrumX).
    @Test func transactionsOnAClosedEnvironmentThrowInsteadOfCrashing() throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let env = try Environment(path: dir.storePath)
        let db = try #require(try env.openDatabases(["kv"])["kv"])
        try env.writeSync { txn throws in try txn.put(db, [1], [1]) }
        env.close()
        #expect(throws: LMDBError.self) { try env.read { try $0.get(db, [1]) } }
        #expect(throws: LMDBError.self) { try env.writeSync { txn throws in try txn.put(db, [2], [2]) } }
    }

    @Test func throwingWriteCommitsNothing() throws {
        struct Boom: Error {}
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let env = try Environment(path: dir.storePath)
        let db = try #require(try env.openDatabases(["kv"])["kv"])
        #expect(throws: Boom.self) {
            try env.writeSync { txn throws in
                try txn.put(db, [1], [1])
                throw Boom()
            }
        }
        #expect(try env.read { try $0.get(db, [1]) } == nil)
    }

    @Test func bigEndianKeysScanInNumericOrder() throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let env = try Environment(path: dir.storePath)
        let db = try #require(try env.openDatabases(["kv"])["kv"])
        let heights: [UInt32] = [70000, 5, 300, 1 << 24, 256]
        try env.writeSync { txn throws in
            for h in heights { try txn.put(db, Array("tx/a1/".utf8) + h.bigEndianBytes, Array("h\(h)".utf8)) }
            try txn.put(db, Array("tx/a2/".utf8) + UInt32(1).bigEndianBytes, [0])
            try txn.put(db, Array("tx/a0/".utf8), [0])
        }
        let prefix = Array("tx/a1/".utf8)
        let forward = try env.read { try $0.entries(db, prefix: prefix) }
        #expect(
            forward.map { String(decoding: $0.value, as: UTF8.self) } == ["h5", "h256", "h300", "h70000", "h16777216"]
        )
        let backward = try env.read { try $0.entries(db, prefix: prefix, reverse: true, limit: 2) }
        #expect(backward.map { String(decoding: $0.value, as: UTF8.self) } == ["h16777216", "h70000"])
        let fromMiddle = try env.read { try $0.entries(db, from: prefix + UInt32(300).bigEndianBytes, prefix: prefix) }
        #expect(fromMiddle.count == 3)
        let reverseFrom = try env.read {
            try $0.entries(db, from: prefix + UInt32(299).bigEndianBytes, prefix: prefix, reverse: true)
        }
        #expect(reverseFrom.map { String(decoding: $0.value, as: UTF8.self) } == ["h256", "h5"])
        #expect(try env.read { try $0.lastKey(db) } == Array("tx/a2/".utf8) + UInt32(1).bigEndianBytes)
        #expect(UInt64(bigEndianBytes: UInt64(123_456_789).bigEndianBytes) == 123_456_789)
    }

    @Test func dataFilesAreOwnerOnly() throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        _ = try Environment(path: dir.storePath)
        for file in ["data.mdb", "lock.mdb"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: "\(dir.storePath)/\(file)")
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file)")
        }
        let dirAttributes = try FileManager.default.attributesOfItem(atPath: dir.storePath)
        #expect((dirAttributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func mapFullGrowsTheMapAndRetries() throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let env = try Environment(path: dir.storePath, options: .init(mapSize: 1 << 20, maxMapSize: 64 << 20))
        let db = try #require(try env.openDatabases(["kv"])["kv"])
        let value = [UInt8](repeating: 7, count: 4096)
        for batch in 0..<4 {
            try env.writeSync { txn throws in
                for i in 0..<400 { try txn.put(db, UInt32(batch * 400 + i).bigEndianBytes, value) }
            }
        }
        #expect(env.usage.mapSize > 1 << 20)
        #expect(try env.read { try $0.count(db) } == 1600)
    }

    @Test func mapFullAtTheLimitFailsNamingTheSetting() throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let env = try Environment(path: dir.storePath, options: .init(mapSize: 1 << 20, maxMapSize: 1 << 20))
        let db = try #require(try env.openDatabases(["kv"])["kv"])
        try env.writeSync { txn in try txn.put(db, [0], [0]) }
        let value = [UInt8](repeating: 7, count: 4096)
        do {
            try env.writeSync { txn throws in
                for i in 0..<1000 { try txn.put(db, UInt32(i).bigEndianBytes, value) }
            }
            Issue.record("expected MDB_MAP_FULL")
        } catch let error as LMDBError {
            #expect(error.isMapFull)
            #expect(error.description.contains("storage.maxMapSize"))
        }
        // The store is intact and still writable for small writes.
        #expect(try env.read { try $0.get(db, [0]) } == [0])
        try env.writeSync { txn in try txn.put(db, [1], [1]) }
    }

    @Test func oversizedKeyIsAClearError() throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let env = try Environment(path: dir.storePath)
        let db = try #require(try env.openDatabases(["kv"])["kv"])
        #expect {
            try env.writeSync { txn in try txn.put(db, [UInt8](repeating: 1, count: 512), [1]) }
        } throws: { error in
            (error as? LMDBError)?.description.contains("511 bytes") == true
        }
    }

    @Test func readOnlyOpenOfMissingStoreFails() {
        #expect(throws: StorageError.missingStore(path: "/nonexistent/watcher")) {
            _ = try Environment(path: "/nonexistent/watcher", options: .init(readOnly: true))
        }
    }
}

import Foundation
import Testing
import WatcherTestSupport

@testable import WatcherStorage

#if canImport(Glibc)
    import Glibc
#endif

/// Many tasks writing through the one writer thread.
struct WriterConcurrencyTests {
    @Test func twoHundredConcurrentWritersLoseNothingOnOneThread() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let env = try Environment(path: dir.storePath)
        let db = try openTable(env)
        let writer = StorageWriter(environment: env)
        let threads = try await withThrowingTaskGroup(of: UInt.self) { group in
            for task in 0..<200 {
                group.addTask {
                    try await writer.write { txn throws in
                        for item in 0..<5 {
                            try txn.put(db, UInt32(task).bigEndianBytes + [UInt8(item)], [UInt8(item)])
                        }
                        // A read inside the same write transaction sees the writes so far.
                        let count = try txn.count(db)
                        precondition(count >= 5)
                        return UInt(bitPattern: Int(bitPattern: UInt(pthread_self())))
                    }
                }
            }
            var seen: Set<UInt> = []
            for try await thread in group { seen.insert(thread) }
            return seen
        }
        #expect(threads.count == 1, "write transactions ran on \(threads.count) threads")
        #expect(try env.read { try $0.count(db) } == 1000)
        await writer.shutdown()
        await #expect(throws: StorageError.writerStopped) {
            try await writer.write { _ in 0 }
        }
    }

    @Test func readsRunConcurrentlyWithWrites() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let env = try Environment(path: dir.storePath)
        let db = try openTable(env)
        let writer = StorageWriter(environment: env)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for i in 0..<200 { try await writer.write { try $0.put(db, UInt32(i).bigEndianBytes, [1]) } }
            }
            for _ in 0..<4 {
                group.addTask {
                    var last = 0
                    for _ in 0..<200 {
                        let count = try env.read { try $0.count(db) }
                        #expect(count >= last, "a reader saw the count go backwards")
                        last = count
                        await Task.yield()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try env.read { try $0.count(db) } == 200)
        await writer.shutdown()
    }
}

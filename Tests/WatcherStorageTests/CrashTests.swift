import Foundation
import Testing
import WatcherTestSupport

@testable import WatcherStorage

/// Real child processes: killed mid-write, holding readers, and reading while this process writes.
@Suite(.serialized)
struct CrashTests {
    /// Every batch is all-or-nothing; every batch the child reported committed is whole.
    func checkBatches(_ env: Environment, committed: Int, absent: Int?) throws {
        let db = try openTable(env)
        try env.read { txn throws in
            var batch = 0
            while true {
                let present = try (0..<100).filter { try txn.get(db, batchKey(batch, $0)) != nil }.count
                if batch < committed {
                    #expect(present == 100, "committed batch \(batch) has \(present) of 100 keys")
                } else {
                    #expect(present == 0 || present == 100, "batch \(batch) is torn: \(present) of 100 keys")
                    if batch == absent { #expect(present == 0, "uncommitted batch \(batch) is visible") }
                    if present == 0 { break }
                }
                batch += 1
            }
        }
    }

    @Test func killedInsideAWriteTransactionLeavesCommittedDataOnly() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let child = try HelperProcess(["hold-write", dir.storePath, "5"])
        try await child.waitFor { $0.contains("holding 5") }
        try await child.kill()
        let env = try Environment(path: dir.storePath)
        try checkBatches(env, committed: 5, absent: 5)
        // The write lock the dead child held is recovered: a new write goes through.
        let db = try openTable(env)
        try writeNow(env) { try $0.put(db, [9], [9]) }
    }

    @Test(arguments: [3, 17, 41])
    func killedAtARandomMomentLeavesNoTornBatch(_ seed: Int) async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        var rng = SplitMix(seed: UInt64(seed))
        let child = try HelperProcess(["commit-loop", dir.storePath])
        let target = Int(rng.next() % 40) + 5
        try await child.waitFor { $0.contains("committed \(target)\n") }
        try await child.kill()
        let reported = child.output.split(separator: "\n").compactMap {
            $0.split(separator: " ").last.flatMap { Int($0) }
        }
        let committed = (reported.max() ?? -1) + 1
        let env = try Environment(path: dir.storePath)
        try checkBatches(env, committed: committed, absent: nil)
    }

    /// A CLI reader dies while the daemon keeps the store open: the daemon's periodic check frees its slot.
    /// (When no process has the store open, LMDB resets the reader table itself at the next open.)
    @Test func staleReaderOfAKilledProcessIsCleared() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let env = try Environment(path: dir.storePath)
        _ = try openTable(env)
        let child = try HelperProcess(["hold-read", dir.storePath])
        try await child.waitFor { $0.contains("reading") }
        try await child.kill()
        #expect(env.clearStaleReaders() == 1)
        #expect(env.clearStaleReaders() == 0)
    }

    @Test func secondProcessReadsWhileThisOneWrites() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let env = try Environment(path: dir.storePath)
        let db = try openTable(env)
        let writer = StorageWriter(environment: env)
        try await writer.write { try $0.put(db, Array("greeting".utf8), Array("hello".utf8)) }
        let first = try await HelperProcess(["read", dir.storePath, "greeting"]).finish()
        #expect(first.contains("hello"))
        try await writer.write { try $0.put(db, Array("greeting".utf8), Array("again".utf8)) }
        let second = try await HelperProcess(["read", dir.storePath, "greeting"]).finish()
        #expect(second.contains("again"))
        await writer.shutdown()
    }
}

/// A tiny deterministic generator for choosing kill moments.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

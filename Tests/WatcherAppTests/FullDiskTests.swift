import Foundation
import Testing
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

/// A full disk at start: a fresh `storage.path` on a filesystem with no byte left is refused with exit 1 and a
/// message naming the path and the missing space (it crashed with SIGBUS in liblmdb, leaving `lock.mdb`), and
/// leaves nothing behind; a store that already exists there still starts. A real 4 MiB tmpfs (``SmallFilesystem``).
@Suite("Full disk", .serialized, .timeLimit(.minutes(2)))
struct FullDiskTests {
    @Test func aFreshStoreOnAFullDiskIsRefusedByNameAndLeavesNothing() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SmallFilesystem.with { disk in
            let data = disk.path + "/store"
            let config = try StoreGuardTests.config(dir, path: data)
            try disk.fill()
            let run = try await WatcherProcess.run(["run", "--config", config], timeout: .seconds(30))
            #expect(run.status == 1, "exit \(run.status): \(run.stderr)")
            #expect(run.stderr.contains(data), "\(run.stderr)")
            #expect(run.stderr.contains("no space left"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: data + "/lock.mdb"), "lock.mdb left behind")
            #expect(!FileManager.default.fileExists(atPath: data), "the directory it created was left behind")
        }
    }

    @Test func anExistingStoreOnAFullDiskStillStarts() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SmallFilesystem.with { disk in
            let data = disk.path + "/store"
            let config = try StoreGuardTests.config(dir, path: data)
            let first = try WatcherProcess(["run", "--config", config])
            try await first.waitForOutput("watcher started")
            first.signal(SIGTERM)
            #expect(try await first.wait(timeout: .seconds(20)).status == 0)
            try disk.fill()
            let again = try WatcherProcess(["run", "--config", config])
            try await again.waitForOutput("watcher started")
            again.signal(SIGTERM)
            let stopped = try await again.wait(timeout: .seconds(20))
            #expect(stopped.status == 0, "exit \(stopped.status): \(stopped.stderr)")
        }
    }
}

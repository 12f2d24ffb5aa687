import Foundation
import Testing
import WatcherApp
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

/// The store is guarded against what an operator can do to it: a second daemon on the same data directory, a
/// truncated or empty `data.mdb`, and `storage.path` naming a file. Each gives one line and exit 1, never a crash.
@Suite("Store guards", .timeLimit(.minutes(2)))
struct StoreGuardTests {
    static func config(_ dir: TemporaryDirectory, path: String = "./data") throws -> String {
        try dir.write(
            "watcher.json",
            """
            {"storage": {"path": "\(path)"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:9"}}],
             "watches": [],
             "sinks": [{"id": "out", "type": "stdout"}]}
            """
        )
    }

    @Test func aSecondDaemonOnOneDataDirectoryRefusesToStart() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try Self.config(dir)
        let first = try WatcherProcess(["run", "--config", config])
        try await first.waitForOutput("watcher started")
        let second = try await WatcherProcess.run(["run", "--config", config], timeout: .seconds(30))
        #expect(second.status == 1)
        #expect(second.stderr.contains("another watcher is running on"), "\(second.stderr)")
        #expect(second.stderr.contains("(pid \(first.process.processIdentifier))"), "\(second.stderr)")
        // Read commands still work beside the daemon.
        let events = try await WatcherProcess.run(["events", "list", "--config", config])
        #expect(events.status == 0, "\(events.stderr)")
        first.signal(SIGTERM)
        #expect(try await first.wait(timeout: .seconds(10)).status == 0)
        // Once it stopped (and also after a SIGKILL: the kernel drops the lock), the directory is free again.
        let third = try WatcherProcess(["run", "--config", config])
        try await third.waitForOutput("watcher started")
        third.signal(SIGKILL)
        _ = try await third.wait(timeout: .seconds(10))
        let fourth = try WatcherProcess(["run", "--config", config])
        try await fourth.waitForOutput("watcher started")
        fourth.signal(SIGTERM)
        #expect(try await fourth.wait(timeout: .seconds(10)).status == 0)
    }

    @Test func aTruncatedStoreIsNamedNotACrash() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try Self.config(dir)
        let data = dir.url.appendingPathComponent("data").path
        let store = try Store(path: data)
        for index in 0..<2000 {
            _ = try await store.write { txn in
                try txn.appendEvent(id: "evt_\(index)", type: "test", body: Array(repeating: 0x41, count: 500))
            }
        }
        await store.close()
        let file = data + "/data.mdb"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        let handle = try #require(FileHandle(forUpdatingAtPath: file))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        for command in [["run"], ["events", "list"]] {
            let result = try await WatcherProcess.run(command + ["--config", config])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("store is truncated or corrupt: \(file)"), "\(command): \(result.stderr)")
        }
        // An empty data.mdb gives the same answer, and is not silently replaced by a new store.
        try Data().write(to: URL(fileURLWithPath: file))
        for command in [["run"], ["events", "list"]] {
            let result = try await WatcherProcess.run(command + ["--config", config])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("store is truncated or corrupt"), "\(command): \(result.stderr)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int == 0)
    }

    @Test func aStoragePathThatIsAFileIsNamed() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try dir.write("not-a-dir", "x")
        let config = try Self.config(dir, path: "./not-a-dir")
        let result = try await WatcherProcess.run(["run", "--config", config])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is a file, not a directory"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
    }
}

/// Limits on what the config can make the process do.
@Suite(.timeLimit(.minutes(1)))
struct ConfigLimitTests {
    @Test func anOversizedConfigIsRefusedBeforeItIsRead() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.url.appendingPathComponent("huge.json").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(ConfigLoader.maxFileBytes + 1))
        try handle.close()
        let result = try await WatcherProcess.run(["check", "--config", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("has \(ConfigLoader.maxFileBytes + 1) bytes; the limit is"), "\(result.stderr)")
    }

    @Test func unlimitedShowsNoBurst() throws {
        let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(
            bytes: Array(
                #"{"providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://x.example"}, "rateLimit": {"requests": 0}}], "watches": [], "sinks": []}"#
                    .utf8
            )
        )
        #expect(
            config.providers[0].rateLimit.json
                == .object([.init("requests", .number("0")), .init("concurrency", .number("4"))])
        )
    }
}

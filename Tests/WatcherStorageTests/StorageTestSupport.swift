import Foundation
import WatcherStorage
import WatcherTestSupport

/// Runs `watcher-test-helper` (built next to the test bundle) as a child process.
final class HelperProcess: @unchecked Sendable {
    // `@unchecked Sendable`: `lines` is guarded by `lock`; the Process is only driven from the test.
    let process = Process()
    private let pipe = Pipe()
    private let lock = NSLock()
    private var text = ""

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "watcher-test-helper"
        )
    }

    init(_ arguments: [String]) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.withLock { self.text += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    var output: String { lock.withLock { text } }

    /// Waits until the output satisfies `condition`, or fails after `timeout`.
    func waitFor(timeout: Duration = .seconds(30), _ condition: (String) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(output) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw HelperError(message: "condition not met; output so far: \(output.suffix(400))")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// SIGKILLs the child and reaps it.
    func kill() async throws {
        Foundation.kill(process.processIdentifier, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning {
            guard ContinuousClock.now < deadline else { throw HelperError(message: "child did not die") }
            try await Task.sleep(for: .milliseconds(5))
        }
        pipe.fileHandleForReading.readabilityHandler = nil
    }

    /// Waits for a normal exit and returns the output.
    func finish(timeout: Duration = .seconds(30)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else { throw HelperError(message: "child did not exit") }
            try await Task.sleep(for: .milliseconds(5))
        }
        pipe.fileHandleForReading.readabilityHandler = nil
        let rest = pipe.fileHandleForReading.readDataToEndOfFile()
        return output + String(decoding: rest, as: UTF8.self)
    }
}

struct HelperError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The key layout the helper writes.
func batchKey(_ batch: Int, _ item: Int) -> [UInt8] {
    Array("batch/".utf8) + UInt32(batch).bigEndianBytes + UInt32(item).bigEndianBytes
}

/// Opens (creating) a table. A synchronous helper: start-up work on the current thread, before any writer runs.
func openTable(_ env: Environment, _ name: String = "kv") throws -> Database {
    guard let db = try env.openDatabases([name])[name] else { throw HelperError(message: "table \(name) missing") }
    return db
}

/// A write on the current thread, for tests where no `StorageWriter` is running.
func writeNow(_ env: Environment, _ body: (WriteTransaction) throws -> Void) throws {
    try env.writeSync(body)
}

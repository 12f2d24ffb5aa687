import Foundation
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

/// Runs `watcher-test-helper` (built next to the test bundle) as a child process, its standard output in a file
/// (read as it grows), its standard error this process's.
final class HelperProcess: Sendable {
    let process: ChildProcess
    private let outputPath: String

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "watcher-test-helper"
        )
    }

    init(_ arguments: [String]) throws {
        outputPath = NSTemporaryDirectory() + "watcher-helper-\(UUID().uuidString.prefix(12)).out"
        process = try ChildProcess(
            Self.executable.path,
            arguments: arguments,
            output: .file(outputPath),
            error: .inherited
        )
    }

    deinit { try? FileManager.default.removeItem(atPath: outputPath) }

    var output: String {
        FileManager.default.contents(atPath: outputPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Waits until the output satisfies `condition`, or fails after `timeout`.
    func waitFor(timeout: Duration = .seconds(30), _ condition: @escaping @Sendable (String) -> Bool) async throws {
        do {
            try await eventually(timeout: timeout, "the helper's output") {
                if condition(output) { return true }
                if !process.isRunning { throw HelperError(message: "the helper exited; output: \(output.suffix(400))") }
                return false
            }
        } catch is TimedOut {
            throw HelperError(message: "condition not met; output so far: \(output.suffix(400))")
        }
    }

    /// SIGKILLs the child and reaps it.
    func kill() async throws {
        process.signal(SIGKILL)
        try await eventually(timeout: .seconds(10), "the helper to die") { !process.isRunning }
    }

    /// Waits for a normal exit and returns the output.
    func finish(timeout: Duration = .seconds(30)) async throws -> String {
        try await eventually(timeout: timeout, "the helper to exit") { !process.isRunning }
        return output
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

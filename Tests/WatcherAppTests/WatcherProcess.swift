import Foundation
import Testing

/// Runs the built `watcher` binary as a real process.
struct WatcherProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `watcher` executable next to the test bundle.
    static var executable: URL {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundleDirectory, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        for directory in candidates {
            let url = directory.appendingPathComponent("watcher")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundleDirectory.appendingPathComponent("watcher")
    }

    let process = Process()
    let stdoutPipe = Pipe()
    let stderrPipe = Pipe()
    let output = OutputCollector()

    /// Starts `watcher` with `arguments`.
    init(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        process.standardInput = FileHandle.nullDevice
        let output = self.output
        stdoutPipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData, err: false)
        }
        stderrPipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData, err: true)
        }
        try process.run()
    }

    /// Runs to completion (at most `timeout`) and returns status and output.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        directory: URL? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        let running = try WatcherProcess(arguments, environment: environment, directory: directory)
        return try await running.wait(timeout: timeout)
    }

    /// Waits for exit within `timeout`, else kills the process and fails.
    func wait(timeout: Duration) async throws -> Result {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.interrupt()
                kill(process.processIdentifier, SIGKILL)
                throw ProcessTimeout(arguments: process.arguments ?? [])
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        stdoutPipe.fileHandleForReading.readabilityHandler = nil
        stderrPipe.fileHandleForReading.readabilityHandler = nil
        output.append(stdoutPipe.fileHandleForReading.readDataToEndOfFile(), err: false)
        output.append(stderrPipe.fileHandleForReading.readDataToEndOfFile(), err: true)
        let (out, err) = output.snapshot()
        return Result(status: process.terminationStatus, stdout: out, stderr: err)
    }

    /// Waits until standard error or output contains `text`.
    func waitForOutput(_ text: String, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (out, err) = output.snapshot()
            if out.contains(text) || err.contains(text) { return }
            if !process.isRunning || ContinuousClock.now > deadline {
                throw ProcessTimeout(arguments: ["waiting for \(text)", "stdout: \(out)", "stderr: \(err)"])
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sends a signal.
    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }
}

struct ProcessTimeout: Error, CustomStringConvertible {
    let arguments: [String]
    var description: String { "process did not finish in time: \(arguments.joined(separator: " "))" }
}

/// Thread-safe accumulation of a child's output.
final class OutputCollector: @unchecked Sendable {
    // `@unchecked Sendable`: all state is guarded by `lock`.
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    func append(_ data: Data, err isError: Bool) {
        lock.withLock {
            if isError { err.append(data) } else { out.append(data) }
        }
    }

    func snapshot() -> (String, String) {
        lock.withLock { (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self)) }
    }
}

/// A fresh temporary directory, removed by `cleanup()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func cleanup() { try? FileManager.default.removeItem(at: url) }
}

import Foundation

/// The built `watcher` executable as a real child process, for tests of the CLI and the daemon: a command run to
/// completion with its output captured (``run(_:environment:directory:timeout:)``), a running one watched and
/// signalled (``init(_:environment:directory:)``), or a daemon whose output is discarded
/// (``daemon(config:environment:)``, ``stop(_:signal:)``).
///
/// ```swift
/// let result = try await WatcherProcess.run(["config", "check", "--config", path])
/// #expect(result.status == 0, "\(result.stderr)")
///
/// let child = try WatcherProcess.daemon(config: path)
/// // … drive the daemon …
/// #expect(try await WatcherProcess.stop(child) == 0)
/// ```
package struct WatcherProcess {
    /// How a finished command ended.
    package struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything written to standard output.
        public var stdout: String
        /// Everything written to standard error.
        public var stderr: String
    }

    /// The `watcher` executable next to the test bundle.
    package static var executable: URL {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundleDirectory, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        for directory in candidates {
            let url = directory.appendingPathComponent("watcher")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundleDirectory.appendingPathComponent("watcher")
    }

    /// The child.
    package let process: ChildProcess
    /// Its standard output and error, each in a file of its own.
    let output: OutputFiles

    /// Starts `watcher` with `arguments`, `environment` added to this process's environment, in `directory`.
    /// Its output goes to files, read as it grows: no pipe to drain, no thread held.
    package init(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws {
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        let output = OutputFiles()
        process = try ChildProcess(
            Self.executable.path,
            arguments: arguments,
            environment: env,
            directory: directory?.path,
            output: .file(output.stdout),
            error: .file(output.stderr)
        )
        self.output = output
    }

    /// Runs to completion (at most `timeout`) and returns status and output.
    package static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        directory: URL? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        let running = try WatcherProcess(arguments, environment: environment, directory: directory)
        return try await running.wait(timeout: timeout)
    }

    /// Waits for exit within `timeout`, else kills the process and throws ``ProcessTimeout``.
    package func wait(timeout: Duration) async throws -> Result {
        do {
            try await eventually(timeout: timeout, "the watcher to exit") { !process.isRunning }
        } catch is TimedOut {
            process.signal(SIGINT)
            process.signal(SIGKILL)
            throw ProcessTimeout(arguments: process.arguments)
        }
        let (out, err) = output.snapshot()
        return Result(status: process.terminationStatus, stdout: out, stderr: err)
    }

    /// Waits until standard error or output contains `text`; throws ``ProcessTimeout`` when `timeout` passes or
    /// the process exits first.
    package func waitForOutput(_ text: String, timeout: Duration = .seconds(30)) async throws {
        func failure() -> ProcessTimeout {
            let (out, err) = output.snapshot()
            return ProcessTimeout(arguments: ["waiting for \(text)", "stdout: \(out)", "stderr: \(err)"])
        }
        do {
            try await eventually(timeout: timeout, text) {
                let (out, err) = output.snapshot()
                if out.contains(text) || err.contains(text) { return true }
                if !process.isRunning { throw failure() }
                return false
            }
        } catch is TimedOut {
            throw failure()
        }
    }

    /// Sends a signal.
    package func signal(_ signal: Int32) { process.signal(signal) }

    /// Starts `watcher run --config <config>` with no input, its output discarded, `WATCHER_LOG_LEVEL=error` and
    /// `environment` added to this process's environment.
    package static func daemon(config: String, environment: [String: String] = [:]) throws -> ChildProcess {
        var merged = ProcessInfo.processInfo.environment
        merged["WATCHER_LOG_LEVEL"] = "error"
        merged.merge(environment) { _, new in new }
        return try ChildProcess(executable.path, arguments: ["run", "--config", config], environment: merged)
    }

    /// Waits until `process` has exited (throws ``TimedOut`` after `timeout`).
    package static func reap(_ process: ChildProcess, timeout: Duration = .seconds(60)) async throws {
        try await eventually(timeout: timeout, "the watcher to exit") { !process.isRunning }
    }

    /// Sends `signal` (`SIGTERM`: a graceful stop) to `process` if it still runs, waits for the exit and returns its
    /// exit status.
    @discardableResult
    package static func stop(_ process: ChildProcess, signal: Int32 = SIGTERM) async throws -> Int32 {
        process.signal(signal)
        try await reap(process)
        return process.terminationStatus
    }
}

/// A ``WatcherProcess`` did not finish, or did not print what was waited for, in time.
package struct ProcessTimeout: Error, CustomStringConvertible {
    /// The command's arguments, or what was waited for and the output so far.
    package let arguments: [String]
    package var description: String { "process did not finish in time: \(arguments.joined(separator: " "))" }
}

/// The files a child's standard output and error go to, removed with the last reference.
final class OutputFiles: Sendable {
    let stdout: String
    let stderr: String

    init() {
        let base = NSTemporaryDirectory() + "watcher-process-\(UUID().uuidString.prefix(12))"
        (stdout, stderr) = (base + ".out", base + ".err")
    }

    /// What was written so far.
    func snapshot() -> (String, String) {
        func read(_ path: String) -> String {
            FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        return (read(stdout), read(stderr))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: stdout)
        try? FileManager.default.removeItem(atPath: stderr)
    }
}

import Foundation

/// The `watcher` executable as a child process, for tests that run the real daemon: `watcher run --config …`
/// started, signalled and reaped.
///
/// ```swift
/// let child = try DaemonProcess.run(config: "\(data)/watcher.json")
/// // … drive the daemon …
/// #expect(try await DaemonProcess.stop(child) == 0)
/// ```
public enum DaemonProcess {
    /// The `watcher` executable built beside the running test bundle (`.build/debug/watcher`).
    public static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("watcher")
            .path
    }

    /// Starts `watcher run --config <config>` with no input, its output discarded, `WATCHER_LOG_LEVEL=error` and
    /// `environment` added to this process's environment.
    public static func run(config: String, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["run", "--config", config]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        var merged = ProcessInfo.processInfo.environment
        merged["WATCHER_LOG_LEVEL"] = "error"
        merged.merge(environment) { _, new in new }
        process.environment = merged
        try process.run()
        return process
    }

    /// Waits until `process` has exited (throws ``TimedOut`` after `timeout`).
    public static func reap(_ process: Process, timeout: Duration = .seconds(60)) async throws {
        try await eventually(timeout: timeout, "the watcher to exit") { !process.isRunning }
    }

    /// Sends `signal` (`SIGTERM`: a graceful stop) to `process` if it still runs, waits for the exit and returns its
    /// termination status.
    @discardableResult
    public static func stop(_ process: Process, signal: Int32 = SIGTERM) async throws -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        try await reap(process)
        return process.terminationStatus
    }
}

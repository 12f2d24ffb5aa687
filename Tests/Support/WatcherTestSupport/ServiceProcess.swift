import Foundation
import WatcherTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A child started the way systemd starts a service (``ChildProcess`` with `asService`): every signal unblocked and
/// SIGHUP, SIGINT and SIGTERM at their default action whatever this test process does with them, and its standard
/// output and error in one file.
package final class ServiceProcess: Sendable {
    private let child: ChildProcess
    /// The child's process id.
    package var pid: pid_t { child.processIdentifier }
    /// The file its standard output and error go to.
    package let outputPath: String

    /// Starts `argv` (the program's path first) with `environment` added to this process's environment.
    package init(_ argv: [String], environment: [String: String] = [:], outputPath: String) throws {
        self.outputPath = outputPath
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        child = try ChildProcess(
            argv[0],
            arguments: Array(argv.dropFirst()),
            environment: merged,
            output: .file(outputPath),
            error: .output,
            asService: true
        )
    }

    /// Its exit status once it has ended (128 + the signal when a signal ended it), else `nil`.
    package var exitStatus: Int32? { child.exitStatus }

    /// What it has written so far.
    package var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Sends `signal`, unless it has ended.
    package func signal(_ signal: Int32) { child.signal(signal) }

    /// Waits until its output contains `text`; throws ``TimedOut`` after `timeout` or once it has ended.
    package func waitForOutput(_ text: String, timeout: Duration = .seconds(30)) async throws {
        try await eventually(timeout: timeout, "\(text) in the output of pid \(pid)") {
            if output.contains(text) { return true }
            if let status = exitStatus { throw TimedOut(what: "\(text): pid \(pid) ended (\(status)): \(output)") }
            return false
        }
    }

    /// Waits for its end and returns its exit status; after `timeout` it is killed and ``TimedOut`` thrown.
    package func wait(timeout: Duration = .seconds(30)) async throws -> Int32 {
        do {
            return try await eventuallyValue(timeout: timeout, "pid \(pid) to exit") { exitStatus }
        } catch {
            child.signal(SIGKILL)
            throw error
        }
    }
}

import Foundation
import Synchronization
import WatcherTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A child started the way systemd starts a service: with `posix_spawn`, every signal unblocked and SIGHUP, SIGINT
/// and SIGTERM at their default action whatever this test process does with them, and its standard output and
/// error in one file. Its exit is read by `waitpid` on a thread of its own (``ProcessRunner/exitStatus(of:)``), so
/// no wait holds a concurrency thread.
package final class ServiceProcess: Sendable {
    /// The child's process id.
    package let pid: pid_t
    /// The file its standard output and error go to.
    package let outputPath: String
    private let ended = Mutex<Int32?>(nil)

    /// Starts `argv` (the program's path first) with `environment` added to this process's environment.
    package init(_ argv: [String], environment: [String: String] = [:], outputPath: String) throws {
        self.outputPath = outputPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGTERM] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        let cEnvironment = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { (cEnvironment + cArguments).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard spawned == 0 else {
            throw ProcessRunnerError(description: "cannot run \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        Task { [self] in
            let status = await ProcessRunner.exitStatus(of: self.pid)
            ended.withLock { $0 = status }
        }
    }

    /// Its exit status once it has ended (128 + the signal when a signal ended it), else `nil`.
    package var exitStatus: Int32? { ended.withLock { $0 } }

    /// What it has written so far.
    package var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Sends `signal`, unless it has ended.
    package func signal(_ signal: Int32) { if exitStatus == nil { kill(pid, signal) } }

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
            kill(pid, SIGKILL)
            throw error
        }
    }
}

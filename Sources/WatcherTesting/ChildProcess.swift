import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, for the test support that runs programs (the `watcher` executable,
/// helpers, python scripts). Its standard streams are `/dev/null` or files, never pipes, and its exit is read by
/// `waitpid` on a thread of its own, so nothing holds a Swift concurrency thread while it runs.
///
/// Not Foundation's `Process`: on Linux (swift-corelibs-foundation as shipped with Swift 6.3.1) `Process.run()`
/// scans `/proc/self/fd` and copies each entry's whole 256-byte `d_name`, reading past glibc's directory buffer;
/// when that buffer ends at an unmapped page the whole test process dies with SIGSEGV in `memcpy` under
/// `Process.run()` (swiftlang/swift-corelibs-foundation#5472, fixed upstream after 6.3.1). The parallel suite,
/// which starts hundreds of children, crashed so in about one run in three. Here the child closes every
/// descriptor above standard error before `exec` (`posix_spawn_file_actions_addclosefrom_np`), as `Process` does.
package final class ChildProcess: Sendable {
    /// Where a standard stream of the child goes.
    package enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A file: read from for standard input, created or truncated for output.
        case file(String)
        /// Standard error only: wherever standard output goes.
        case output
        /// This process's own.
        case inherited
    }

    /// The child's process id.
    package let processIdentifier: pid_t
    /// The arguments it was given (not the program's path).
    package let arguments: [String]
    /// Its exit status once it has ended, and the tasks waiting for it until then.
    private let ended = Mutex<(status: Int32?, waiting: [CheckedContinuation<Int32, Never>])>((nil, []))

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - environment: its whole environment; `nil`: this process's.
    ///   - directory: its working directory; `nil`: this process's.
    ///   - asService: started the way systemd starts a service: every signal unblocked, and SIGHUP, SIGINT and
    ///     SIGTERM at their default action whatever this process does with them.
    package init(
        _ executable: String,
        arguments: [String],
        environment: [String: String]? = nil,
        directory: String? = nil,
        input: Stream = .null,
        output: Stream = .null,
        error: Stream = .null,
        asService: Bool = false
    ) throws {
        self.arguments = arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, stream) in [(Int32(0), input), (1, output), (2, error)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(
                    &actions,
                    descriptor,
                    "/dev/null",
                    descriptor == 0 ? O_RDONLY : O_WRONLY,
                    0
                )
            case .file(let path):
                let flags = descriptor == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC
                posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o644)
            case .output:
                posix_spawn_file_actions_adddup2(&actions, 1, descriptor)
            case .inherited:
                break
            }
        }
        guard Self.closeFrom(&actions, 3) == 0 else {
            throw ChildProcessError(
                description: "cannot run \(executable): no posix_spawn_file_actions_addclosefrom_np"
            )
        }
        if let directory, Self.changeDirectory(&actions, directory) != 0 {
            throw ChildProcessError(description: "cannot run \(executable) in \(directory)")
        }
        let cEnvironment =
            (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        let cArguments = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { (cEnvironment + cArguments).forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if asService {
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGHUP, SIGINT, SIGTERM] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, cArguments, cEnvironment)
        guard spawned == 0 else {
            throw ChildProcessError(description: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        processIdentifier = pid
        Thread.detachNewThread { [self, pid] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let signal = status & 0x7f
            let exit = signal == 0 ? (status >> 8) & 0xff : 128 + signal
            let waiting = ended.withLock { ended in
                ended.status = exit
                defer { ended.waiting = [] }
                return ended.waiting
            }
            for task in waiting { task.resume(returning: exit) }
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` and `posix_spawn_file_actions_addchdir_np` (2.34 and
    /// 2.29), which Swift's `Glibc` module does not declare (they are GNU extensions): found by name.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static func glibc<T>(_ name: String, as: T.Type) -> T? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: T.self) }
    }
    private static func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32 {
        glibc("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self)?(actions, from) ?? -1
    }
    private static func changeDirectory(
        _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>,
        _ path: String
    ) -> Int32 {
        guard let add = glibc("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self) else {
            return -1
        }
        return path.withCString { add(actions, $0) }
    }

    /// Whether it has not ended yet.
    package var isRunning: Bool { exitStatus == nil }

    /// Its exit status once it has ended (128 + the signal when a signal ended it), else `nil`.
    package var exitStatus: Int32? { ended.withLock { $0.status } }

    /// Waits for its end (with no deadline: the caller bounds it) and returns its exit status.
    package func exit() async -> Int32 {
        await withCheckedContinuation { task in
            let status = ended.withLock { ended in
                if ended.status == nil { ended.waiting.append(task) }
                return ended.status
            }
            if let status { task.resume(returning: status) }
        }
    }

    /// Its exit status (128 + the signal when a signal ended it); -1 while it runs.
    package var terminationStatus: Int32 { exitStatus ?? -1 }

    /// Sends `signal`, unless it has ended (its pid may have been reused since).
    package func signal(_ signal: Int32) { if isRunning { kill(processIdentifier, signal) } }
}

/// A program could not be started.
package struct ChildProcessError: Error, CustomStringConvertible {
    package var description: String
}

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to completion without holding a Swift concurrency thread: it is spawned with `posix_spawn`, and
/// the blocking `waitpid` runs on a thread of its own. A test that waited on one of the cooperative threads (there
/// are as many as cores, two on CI) would stall every other test of the parallel suite for as long as the program
/// runs, as `initdb` and `pg_ctl start` did.
package enum ProcessRunner {
    /// What a finished program left.
    package struct Outcome: Sendable {
        /// Its exit status (when it exited), else 128 + the signal.
        package var status: Int32
        /// Standard output and standard error, interleaved.
        package var output: String
    }

    /// Runs `argv` (the program's path first) with standard input from `input` and output to a file, not a pipe:
    /// a server the program leaves running (as `pg_ctl start` does) would hold a pipe open for ever.
    package static func run(_ argv: [String], input: String = "", scratch: String? = nil) async throws -> Outcome {
        let directory = scratch ?? NSTemporaryDirectory()
        let tag = UUID().uuidString.prefix(8)
        let outputPath = directory + "/process-\(tag).out"
        let inputPath = directory + "/process-\(tag).in"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: inputPath)
        }
        try input.write(toFile: inputPath, atomically: true, encoding: .utf8)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else {
            throw ProcessRunnerError(description: "cannot run \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        let status = await exitStatus(of: pid)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return Outcome(status: status, output: text)
    }

    /// Waits for `pid` on a thread of its own.
    package static func exitStatus(of pid: pid_t) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                let signal = status & 0x7f
                continuation.resume(returning: signal == 0 ? (status >> 8) & 0xff : 128 + signal)
            }
        }
    }
}

/// A program could not be started.
package struct ProcessRunnerError: Error, CustomStringConvertible {
    package var description: String
}

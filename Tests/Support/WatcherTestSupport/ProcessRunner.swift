import Foundation
import WatcherTesting

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
        let child: ChildProcess
        do {
            child = try ChildProcess(
                argv[0],
                arguments: Array(argv.dropFirst()),
                input: .file(inputPath),
                output: .file(outputPath),
                error: .output
            )
        } catch let error as ChildProcessError {
            throw ProcessRunnerError(description: error.description)
        }
        let status = await child.exit()
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return Outcome(status: status, output: text)
    }

}

/// A program could not be started.
package struct ProcessRunnerError: Error, CustomStringConvertible {
    package var description: String
}

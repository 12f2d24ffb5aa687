import Foundation
import Testing
import WatcherTestSupport
import WatcherTesting

/// `--http-token`: an empty token (an unset variable in `--http-token "$VAR"`) must not open writes, and a token
/// without `--http` is a mistake; both exit 2 before anything starts.
@Suite(.timeLimit(.minutes(1)))
struct HTTPTokenFlagTests {
    @Test(arguments: ["run", "demo"]) func anEmptyTokenIsRefused(command: String) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try StoreGuardTests.config(dir)
        let arguments = command == "run" ? ["run", "--config", config] : ["demo", "--data", dir.url.path]
        let result = try await WatcherProcess.run(arguments + ["--http", "0.0.0.0:0", "--http-token", " "])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--http-token: the token is empty"), "\(result.stderr)")
    }

    @Test func aTokenNeedsHTTP() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try StoreGuardTests.config(dir)
        let result = try await WatcherProcess.run(["run", "--config", config, "--http-token", "t0ken"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--http-token needs --http"), "\(result.stderr)")
    }
}

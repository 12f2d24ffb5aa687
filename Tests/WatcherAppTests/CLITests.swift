import Foundation
import Testing
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

/// The `watcher` binary: exit codes, help, check output, and clean shutdown on signals.
@Suite(.serialized)
struct CLITests {
    static var examplesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("examples")
    }

    @Test func versionAndHelp() async throws {
        let version = try await WatcherProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
        for command in ["run", "check", "init", "plugins", "simnet"] {
            let help = try await WatcherProcess.run([command, "--help"])
            #expect(help.status == 0, "\(command) --help")
            #expect(help.stdout.contains("USAGE: watcher \(command)"), "\(command) --help")
        }
    }

    @Test func badUsageExitsTwo() async throws {
        let unknown = try await WatcherProcess.run(["frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("frobnicate"))
        let badOption = try await WatcherProcess.run(["check", "--no-such-flag"])
        #expect(badOption.status == 2)
    }

    @Test func checkExampleConfigPasses() async throws {
        let result = try await WatcherProcess.run([
            "check", "--config", Self.examplesDirectory.appendingPathComponent("watcher.json").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"providers\""))
    }

    @Test func missingConfigExitsTwo() async throws {
        let result = try await WatcherProcess.run(["check", "--config", "/nonexistent/watcher.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("config file /nonexistent/watcher.json does not exist"))
    }

    @Test func checkListsAllThreeErrorsAndHidesSecrets() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        let path = try dir.write(
            "bad.json",
            """
            {"storage": {"durabilty": "full"},
             "providers": [{"id": "cd", "type": "coindesk", "options": {"url": "ftp://x"}}],
             "watches": [{"id": "w", "type": "blocks", "providers": ["nope"]}],
             "sinks": [{"id": "h", "type": "webhook", "options": {"url": "https://h.example", "secret": "${HOOK_SECRET}"}}]}
            """
        )
        let result = try await WatcherProcess.run(["check", "--config", path], environment: ["HOOK_SECRET": secret])
        #expect(result.status == 2)
        #expect(result.stderr.contains("3 errors"))
        #expect(result.stderr.contains(#"storage.durabilty: unknown key "durabilty"; did you mean "durability"?"#))
        #expect(result.stderr.contains(#"providers[0].options.url: expected an http(s) URL, got "ftp://x""#))
        #expect(result.stderr.contains(#"watches[0].providers[0]: no provider has id "nope""#))
        #expect(!(result.stdout + result.stderr).contains(secret))
    }

    @Test func checkMasksSecretsInResolvedConfig() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        let path = try dir.write(
            "ok.json",
            """
            {"providers": [],
             "sinks": [{"id": "h", "type": "webhook", "options": {"url": "https://h.example", "secret": "${HOOK_SECRET}"}}]}
            """
        )
        let result = try await WatcherProcess.run(["check", "--config", path], environment: ["HOOK_SECRET": secret])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("${HOOK_SECRET}"))
        #expect(!(result.stdout + result.stderr).contains(secret))
    }

    @Test func initWritesAConfigThatPassesCheck() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let written = try await WatcherProcess.run(["init"], directory: dir.url)
        #expect(written.status == 0)
        let again = try await WatcherProcess.run(["init"], directory: dir.url)
        #expect(again.status == 2)
        #expect(again.stderr.contains("already exists"))
        let check = try await WatcherProcess.run(["check"], directory: dir.url)
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func pluginsTableAndJSON() async throws {
        let table = try await WatcherProcess.run(["plugins"])
        #expect(table.status == 0)
        for type in ["blockbook", "rawaddr", "coindesk", "json-price", "stdout", "file", "webhook"] {
            #expect(table.stdout.contains(type))
        }
        let json = try await WatcherProcess.run(["plugins", "--json"])
        #expect(json.status == 0)
        #expect(json.stdout.contains("\"plugins\""))
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func runStopsCleanlyOnSignal(_ signal: Int32) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try dir.write(
            "watcher.json",
            """
            {"storage": {"path": "./data"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:9"}}],
             "watches": [],
             "sinks": [{"id": "out", "type": "stdout"}]}
            """
        )
        let running = try WatcherProcess(["run", "--config", config])
        try await running.waitForOutput("watcher started")
        let signalled = ContinuousClock.now
        running.signal(signal)
        let result = try await running.wait(timeout: .seconds(5))
        #expect(ContinuousClock.now - signalled < .seconds(5))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("watcher stopped"))
        // The store was closed cleanly: it opens again, and reports the schema this build writes.
        let store = try Store(path: dir.url.appendingPathComponent("data").path, options: .init(readOnly: true))
        #expect(try store.read { try $0.lastEventSeq() } == 0)
        await store.close()
    }

    /// SIGHUP reloads and never stops the daemon: not during start-up (once the process has begun, it ignores the
    /// signal until its handler is installed), not while it runs, not during its shutdown; SIGTERM still stops it
    /// cleanly with exit 0.
    @Test func sighupNeverStopsTheDaemon() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try dir.write(
            "watcher.json",
            """
            {"storage": {"path": "./data"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:9"}}],
             "watches": [],
             "sinks": [{"id": "out", "type": "stdout"}]}
            """
        )
        let running = try WatcherProcess(["run", "--config", config])
        let pid = running.process.processIdentifier
        // Start-up: as soon as the process ignores or catches SIGHUP (its first statement), send one.
        try await eventually("the process to ignore SIGHUP") { Self.handlesHangup(pid) || !running.process.isRunning }
        running.signal(SIGHUP)
        try await running.waitForOutput("watcher started")
        running.signal(SIGHUP)
        try await running.waitForOutput("configuration reloaded")
        #expect(running.process.isRunning)
        // Shutdown: a SIGHUP right behind the SIGTERM changes nothing.
        running.signal(SIGTERM)
        running.signal(SIGHUP)
        let result = try await running.wait(timeout: .seconds(5))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("watcher stopped"))
    }

    /// `watcher reload` finds the daemon through its data directory's lock and sends it SIGHUP; with no daemon it
    /// exits 1, and with an invalid config it exits 2 and signals nothing. It needs no sink secret: the daemon has
    /// them in its own environment.
    @Test func reloadCommandSignalsTheDaemonOfTheDataDirectory() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = """
            {"storage": {"path": "./data"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:9"}}],
             "watches": [],
             "sinks": [{"id": "out", "type": "stdout"},
                       {"id": "hook", "type": "webhook",
                        "options": {"url": "http://127.0.0.1:9/hook", "secret": "${RELOAD_TEST_SECRET}"}}]}
            """
        let config = try dir.write("watcher.json", text)
        let none = try await WatcherProcess.run(["reload", "--config", config])
        #expect(none.status == 1 && none.stderr.contains("no watcher is running on"), "\(none.stderr)")
        let running = try WatcherProcess(
            ["run", "--config", config],
            environment: ["RELOAD_TEST_SECRET": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"]
        )
        try await running.waitForOutput("watcher started")
        let sent = try await WatcherProcess.run(["reload", "--config", config])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(
            sent.stdout.contains("sent SIGHUP to the watcher on")
                && sent.stdout.contains("(pid \(running.process.processIdentifier))")
        )
        try await running.waitForOutput("configuration reloaded")
        try dir.write("watcher.json", text.replacingOccurrences(of: #""type": "stdout""#, with: #""type": "nope""#))
        let invalid = try await WatcherProcess.run(["reload", "--config", config])
        #expect(invalid.status == 2 && invalid.stderr.contains("sinks[0].type"), "\(invalid.stderr)")
        running.signal(SIGTERM)
        let result = try await running.wait(timeout: .seconds(5))
        #expect(result.status == 0)
        #expect(result.stderr.components(separatedBy: "SIGHUP: reloading").count == 2, "one reload only")
    }

    /// A changed `storage` section is kept as it runs until the next restart, and each reload says so while the file
    /// and the storage in force differ; the rest of the file is applied.
    @Test func aStorageChangeWaitsForTheNextRestart() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = """
            {"storage": {"path": "./data"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:9"}}],
             "watches": [],
             "sinks": [{"id": "out", "type": "stdout"}]}
            """
        let config = try dir.write("watcher.json", text)
        let running = try WatcherProcess(["run", "--config", config])
        try await running.waitForOutput("watcher started")
        let storage = text.replacingOccurrences(of: #""path": "./data""#, with: #""path": "./data", "keepHeaders": 50"#)
        try dir.write("watcher.json", storage)
        running.signal(SIGHUP)
        try await running.waitForOutput("changes=storage changed (needs a restart) restarted=nothing")
        let sinks = storage.replacingOccurrences(of: #""id": "out""#, with: #""id": "out2""#)
        try dir.write("watcher.json", sinks)
        running.signal(SIGHUP)
        try await running.waitForOutput("restarted=delivery")
        running.signal(SIGTERM)
        let result = try await running.wait(timeout: .seconds(5))
        #expect(result.status == 0)
        let warnings = result.stderr.components(separatedBy: "takes effect at the next restart").count - 1
        #expect(warnings == 2, "\(result.stderr)")
        #expect(result.stderr.contains("sinks: +out2 -out"), "\(result.stderr)")
    }

    /// Whether `pid` no longer dies of SIGHUP: it ignores it or catches it (`SigIgn` or `SigCgt` in
    /// /proc/PID/status, bit 0).
    static func handlesHangup(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        return ["SigIgn:", "SigCgt:"].contains { field in
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
                let mask = UInt64(line.dropFirst(field.count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return mask & 1 != 0
        }
    }
}

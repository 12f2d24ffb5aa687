import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherPlugins
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

@testable import WatcherApp

/// What read commands need of a config, what they print, and the storage paths they refuse.
@Suite(.timeLimit(.minutes(2)))
struct ReadCommandTests {
    static let hookConfig = """
        {"storage": {"path": "./data"},
         "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:9"}}],
         "watches": [],
         "sinks": [{"id": "hook", "type": "webhook",
                    "options": {"url": "http://127.0.0.1:9/h?token=${URLKEY}", "secret": "${HOOKSECRET}"}}]}
        """

    @Test func readCommandsNeedNoSinkSecrets() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try dir.write("watcher.json", Self.hookConfig)
        let store = try Store(path: dir.url.appendingPathComponent("data").path)
        _ = try await store.write { try $0.appendEvent(id: "evt_1", type: "block.new", body: Array("{}".utf8)) }
        await store.close()
        for command in [["blocks"], ["events", "list"], ["deadletters", "list"], ["accounts", "list"], ["price"]] {
            let result = try await WatcherProcess.run(command + ["--config", config])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("URLKEY"), "\(command): \(result.stderr)")
        }
        // Commands that deliver, or judge the whole config, still need them, and name each.
        for command in [["check"], ["run"]] {
            let result = try await WatcherProcess.run(command + ["--config", config])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("sinks[0].options.url: environment variable URLKEY is not set"))
            #expect(result.stderr.contains("sinks[0].options.secret: environment variable HOOKSECRET is not set"))
        }
    }

    @Test func theLoaderLeavesOutOnlySinksWithUnsetVariables() throws {
        var loader = ConfigLoader(registry: .builtIn, environment: [:])
        loader.requiresSinkSecrets = false
        let text = Self.hookConfig.replacingOccurrences(
            of: #""sinks": ["#,
            with: #""sinks": [{"id": "out", "type": "stdout"}, "#
        )
        let config = try loader.load(bytes: Array(text.utf8))
        #expect(config.sinks.map(\.id) == ["out"])
        // A sink that is wrong for another reason is still an error.
        let broken = text.replacingOccurrences(of: #""type": "stdout""#, with: #""type": "stdot""#)
        #expect(throws: ConfigError.self) { try loader.load(bytes: Array(broken.utf8)) }
    }

    @Test func anEmptyStoragePathIsAnError() throws {
        let text = #"{"storage": {"path": ""}, "providers": [], "watches": [], "sinks": []}"#
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(text.utf8))
        }
        #expect(
            error?.description.contains("storage.path: expected a directory path") == true,
            "\(String(describing: error))"
        )
    }

    @Test func readCommandsNameAStoragePathThatIsAFile() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try dir.write("not-a-dir", "x")
        let config = try StoreGuardTests.config(dir, path: "./not-a-dir")
        for command in [["blocks"], ["events", "list"]] {
            let result = try await WatcherProcess.run(command + ["--config", config])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("is a file, not a directory"), "\(command): \(result.stderr)")
        }
    }

    @Test func tablesAlignWideAndControlCharacters() {
        let lines = TextTable.render([
            ["ADDRESS", "LABEL", "BALANCE"],
            ["bc1qa", "café ☕️ 🚀", "1"],
            ["bc1qb", "tab\there\nnewline", "2"],
            ["bc1qc", "日本", "3"],
        ])
        #expect(lines.count == 4)
        #expect(!lines.joined().contains("\u{FFFD}") && !lines.joined().contains("\t"))
        #expect(lines[1].contains("café ☕️ 🚀") && lines[2].contains("tab here newline"))
        // The last column starts at the same terminal column on every line.
        let starts = lines.map { line in TextTable.width(String(line.dropLast(line.hasSuffix("BALANCE") ? 7 : 1))) }
        #expect(Set(starts).count == 1, "\(lines)")
        #expect(TextTable.width("🚀") == 2 && TextTable.width("日本") == 4 && TextTable.width("e\u{301}") == 1)
    }
}

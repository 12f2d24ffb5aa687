import Foundation
import Testing
import WatcherCore
import WatcherPlugins
import WatcherTestSupport

@testable import WatcherConfiguration

/// A config path that cannot be read says why: a directory, a symlink loop, permission denied; the `watcher init`
/// hint comes only when nothing is there.
struct ConfigFileTests {
    static func message(_ path: String) -> String {
        do {
            _ = try ConfigLoader(registry: .builtIn, environment: [:]).load(file: path)
            return "loaded"
        } catch {
            return error.description
        }
    }

    @Test func eachUnreadablePathSaysWhy() throws {
        let directory = try TemporaryDirectory("config-file")
        defer { directory.remove() }
        let missing = directory.file("none.json")
        #expect(Self.message(missing).contains("config file \(missing) does not exist; `watcher init` writes one"))

        let folder = directory.file("folder.json")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let dir = Self.message(folder)
        #expect(dir.contains("config file \(folder) is a directory") && !dir.contains("watcher init"), "\(dir)")

        let loop = directory.file("loop.json")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let looped = Self.message(loop)
        #expect(looped.contains("config file \(loop) is a symlink loop") && !looped.contains("watcher init"))

        let dangling = directory.file("dangling.json")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: missing)
        let broken = Self.message(dangling)
        #expect(broken.contains("is a symbolic link to a file that does not exist") && !broken.contains("init"))

        let notDirectory = try directory.write("plain", "x") + "/watcher.json"
        #expect(Self.message(notDirectory).contains("a part of the path is not a directory"))
    }

    /// Root reads any file, so the test suite (run as root in CI) checks the errno's message directly.
    @Test func permissionDeniedIsNamed() {
        #expect(
            ConfigFile.message("/etc/w.json", errno: EACCES)
                == "config file /etc/w.json cannot be read: permission denied"
        )
        #expect(!ConfigFile.message("/etc/w.json", errno: EACCES).contains("init"))
    }

    @Test func aSecretThatBreaksAURLGetsThePercentEncodingHintWithoutItsValue() {
        let secret = "p@ss/w#rd%?"
        let json = ConfigText.config(
            sinks:
                #"[{"id": "pg", "type": "postgres", "options": {"url": "postgres://watcher:${PG_PASSWORD}@127.0.0.1:5432/chain"}}]"#
        )
        do {
            _ = try ConfigLoader(registry: .builtIn, environment: ["PG_PASSWORD": secret]).load(bytes: Array(json.utf8))
            Issue.record("a password with @ / # % ? loaded")
        } catch {
            let text = error.description
            #expect(text.contains("sinks[0].options.url"), "\(text)")
            #expect(text.contains("the value of ${PG_PASSWORD} is part of the URL: percent-encode"), "\(text)")
            for encoded in ["@ %40", ": %3A", "/ %2F", "? %3F", "# %23", "% %25"] {
                #expect(text.contains(encoded), "\(encoded) in \(text)")
            }
            #expect(!text.contains(secret) && !text.contains("w#rd"), "\(text)")
        }
        // Encoded, the same password loads.
        let encoded = "p%40ss%2Fw%23rd%25%3F"
        #expect(throws: Never.self) {
            _ = try ConfigLoader(registry: .builtIn, environment: ["PG_PASSWORD": encoded]).load(
                bytes: Array(json.utf8)
            )
        }
    }
}

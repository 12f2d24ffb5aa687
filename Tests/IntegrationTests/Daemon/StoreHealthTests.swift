import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WatcherJSON
import WatcherSimnet
import WatcherTestSupport
import WatcherTesting

/// A store whose commits fail turns `/healthz` unhealthy with the reason, counts each failure in
/// `watcher_store_errors_total` by operation, and is healthy again once commits succeed: a real `watcher run` whose
/// store sits on a 4 MiB tmpfs (``SmallFilesystem``) that fills up while blocks arrive, and is freed again.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct StoreHealthTests {
    static func health(_ client: HTTPClient, _ base: String) async throws -> (status: Int, body: JSONValue) {
        let response = try await client.execute(HTTPClientRequest(url: base + "/healthz"), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), try JSONValue.parse(String(buffer: body)))
    }

    static func storeErrors(_ client: HTTPClient, _ base: String, operation: String) async throws -> Double? {
        let response = try await client.execute(HTTPClientRequest(url: base + "/metrics"), timeout: .seconds(30))
        let text = String(buffer: try await response.body.collect(upTo: 8 << 20))
        return DaemonHarness.value(text, #"watcher_store_errors_total{operation="\#(operation)"}"#)
    }

    @Test func failingCommitsTurnHealthzUnhealthyAndBackAgain() async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            try await SmallFilesystem.with { disk in
                try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
                let path = "\(data)/watcher.json"
                try """
                {"storage": {"path": "\(disk.path)/store", "mapSize": 8388608},
                 "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "\(simnet.baseURL)", "timeout": "2s"},
                                "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}}],
                 "watches": [{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"}],
                 "sinks": []}
                """.write(toFile: path, atomically: true, encoding: .utf8)
                let port = try freePort()
                let base = "http://127.0.0.1:\(port)"
                let daemon = try WatcherProcess(
                    ["run", "--config", path, "--http", "127.0.0.1:\(port)"],
                    environment: ["WATCHER_LOG_LEVEL": "info"]
                )
                do {
                    try await daemon.waitForOutput("status server listening")
                    try await eventually(timeout: .seconds(60), "healthy at first") {
                        try await Self.health(client, base).status == 200
                    }
                    #expect(try await Self.storeErrors(client, base, operation: "commit") == 0)
                    try disk.fill()
                    // Blocks until a commit needs a page the full disk cannot give.
                    let failing = try await eventuallyValue(timeout: .seconds(90), "/healthz to report the commits") {
                        _ = try await simnet.mine(count: 20)
                        let health = try await Self.health(client, base)
                        let reason = health.body["reasons"]?["store"]?.stringValue ?? ""
                        return health.status == 503 && reason.contains("commit") ? health.body : nil
                    }
                    let reason = failing["reasons"]?["store"]?.stringValue ?? ""
                    #expect(reason.contains("commit") && reason.contains("No space left"), "\(failing)")
                    #expect(failing["store"] == .bool(false), "\(failing)")
                    #expect(try await Self.storeErrors(client, base, operation: "commit") ?? 0 > 0)
                    try disk.free()
                    try await eventually(timeout: .seconds(90), "healthy again once commits succeed") {
                        _ = try await simnet.mine(count: 1)
                        return try await Self.health(client, base).status == 200
                    }
                } catch {
                    daemon.signal(SIGKILL)
                    throw error
                }
                daemon.signal(SIGTERM)
                let stopped = try await daemon.wait(timeout: .seconds(30))
                #expect(stopped.status == 0, "\(stopped.stderr.suffix(2000))")
            }
        }
    }
}

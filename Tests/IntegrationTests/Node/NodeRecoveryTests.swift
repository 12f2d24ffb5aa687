import AsyncHTTPClient
import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// A `watcher run` process against the simnet's Bitcoin Core face: a node warming up (-28), overloaded (503) or
/// refusing the credentials (401) is reported on `/healthz` in plain words naming the option, never the secret, and
/// the daemon recovers by itself once the node does, without a restart.
@Suite(.serialized)
struct NodeRecoveryTests {
    static let password = "s3cret-node-pw-41c9"

    /// Runs a daemon with one `bitcoind` provider (`auth` is its options' JSON) and a blocks watch, and `body` with
    /// the simnet and a reader of `/healthz`'s unhealthy reasons (provider → reason).
    static func withDaemon(
        auth: (SimnetConfiguration) -> String,
        cookie: Bool = false,
        _ body: (Simnet, @escaping @Sendable () async -> [String: String]?) async throws -> Void
    ) async throws {
        let data = EngineHarness.dataDirectory()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        var configuration = SimnetConfiguration(seed: 7, port: 0, blockInterval: nil)
        configuration.rpcPassword = password
        if cookie { configuration.cookieFile = "\(data)/.cookie" }
        let simnet = try await Simnet.start(configuration)
        let config = "\(data)/watcher.json"
        try """
        {"storage": {"path": "\(data)"},
         "providers": [{"id": "node", "type": "bitcoind", "chain": "btc",
                        "options": {"url": "\(simnet.baseURL)", "timeout": "1s", \(auth(configuration))}}],
         "watches": [{"id": "tip", "type": "blocks", "providers": ["node"], "every": "1s"}],
         "sinks": []}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        do {
            let daemon = try await StatusDaemon.start(
                config: config,
                data: data,
                arguments: ["--check-interval", "1s"]
            )
            let status = try await daemon.whileRunning { client in
                let base = daemon.base
                try await body(simnet) {
                    guard let answer = try? await DaemonHarness.get(client, "\(base)/healthz"),
                        case .object(let reasons)? = (try? JSONValue.parse(Array(answer.body.utf8)))?["reasons"]
                    else { return nil }
                    var out: [String: String] = [:]
                    for member in reasons { out[member.key] = member.value.stringValue ?? member.value.serialized() }
                    return out
                }
            }
            #expect(status == 0)
            let log = (try? String(contentsOfFile: daemon.log, encoding: .utf8)) ?? ""
            #expect(!log.contains(password), "the password in the daemon's log")
            #expect(!log.contains(simnet.rpcCookie), "the cookie in the daemon's log")
        } catch {
            await simnet.shutdown()
            throw error
        }
        await simnet.shutdown()
    }

    static let passwordAuth: @Sendable (SimnetConfiguration) -> String = { _ in
        #""user": "watcher", "password": "\#(password)""#
    }

    @Test func aNodeWarmingUpIsReportedAndRecoveredFrom() async throws {
        try await Self.withDaemon(auth: Self.passwordAuth) { simnet, reasons in
            try await eventually(timeout: .seconds(60), "a healthy /healthz") { await reasons() == [:] }
            await simnet.setNodeSettings(NodeSettings(warmup: true))
            try await eventually(timeout: .seconds(60), "the node reported warming up") {
                await reasons()?["node"]?.contains("warming up") == true
            }
            await simnet.setNodeSettings(NodeSettings())
            try await eventually(timeout: .seconds(60), "healthy again") { await reasons() == [:] }
        }
    }

    @Test func anOverloadedNodeIsReportedAndRecoveredFrom() async throws {
        try await Self.withDaemon(auth: Self.passwordAuth) { simnet, reasons in
            try await eventually(timeout: .seconds(60), "a healthy /healthz") { await reasons() == [:] }
            await simnet.setNodeSettings(NodeSettings(workQueueFull: true))
            try await eventually(timeout: .seconds(60), "the node reported overloaded") {
                await reasons()?["node"]?.contains("work queue depth exceeded") == true
            }
            await simnet.setNodeSettings(NodeSettings())
            try await eventually(timeout: .seconds(60), "healthy again") { await reasons() == [:] }
        }
    }

    @Test func aWrongPasswordNamesTheOptionNotTheSecret() async throws {
        try await Self.withDaemon(auth: { _ in #""user": "watcher", "password": "not-the-password""# }) {
            _,
            reasons in
            try await eventually(timeout: .seconds(60), "the node reported unauthorized") {
                await reasons()?["node"]?.contains("unauthorized") == true
            }
            let reason = await reasons()?["node"] ?? ""
            #expect(reason.contains("password"), "\(reason)")
            #expect(!reason.contains("not-the-password"), "\(reason)")
        }
    }

    @Test func aRotatedCookieIsReadAgainWithoutARestart() async throws {
        try await Self.withDaemon(auth: { #""cookieFile": "\#($0.cookieFile ?? "")""# }, cookie: true) {
            simnet,
            reasons in
            try await eventually(timeout: .seconds(60), "a healthy /healthz") { await reasons() == [:] }
            let seen = await simnet.stats().log.count
            try await simnet.rotateCookie()
            _ = try await simnet.mine(count: 1)
            // The old cookie is refused once (401), the file is read again, and the next request is answered.
            try await eventually(timeout: .seconds(60), "a 401, then answers with the new cookie") {
                let after = await simnet.stats().log.dropFirst(seen).filter { $0.family == .bitcoind }
                guard let refused = after.lastIndex(where: { $0.status == 401 }) else { return false }
                return after[refused...].contains { $0.status == 200 }
            }
            try await eventually(timeout: .seconds(60), "healthy with the new cookie") { await reasons() == [:] }
        }
    }
}

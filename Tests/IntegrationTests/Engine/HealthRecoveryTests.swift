import AsyncHTTPClient
import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// `/healthz` follows every provider back up, a failover provider that no job asks any more included: after an
/// outage of all providers, the primary takes the work back and the backup is asked by its recovery probe.
@Suite(.serialized)
struct HealthRecoveryTests {
    @Test func aFailoverProviderIsSeenToRecoverWithinACheckInterval() async throws {
        let data = EngineHarness.dataDirectory()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        var configuration = SimnetConfiguration(seed: 5, port: 0, blockInterval: nil)
        var simnet = try await Simnet.start(configuration)
        configuration.port = simnet.port  // it comes back on the same port
        let config = "\(data)/watcher.json"
        try """
        {"storage": {"path": "\(data)"},
         "providers": [{"id": "primary", "type": "coindesk", "options": {"url": "\(simnet.baseURL)", "timeout": "1s"}},
                       {"id": "backup", "type": "coindesk", "options": {"url": "\(simnet.baseURL)", "timeout": "1s"}}],
         "watches": [{"id": "usd", "type": "price", "providers": ["primary", "backup"], "every": "1s"}],
         "sinks": []}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try await StatusDaemon.start(config: config, data: data, arguments: ["--check-interval", "1s"])
        let status: Int32
        do {
            status = try await daemon.whileRunning { client in
                let base = daemon.base
                @Sendable func unhealthy() async -> Set<String>? {
                    guard let answer = try? await DaemonHarness.get(client, "\(base)/healthz"),
                        case .object(let reasons)? = (try? JSONValue.parse(Array(answer.body.utf8)))?["reasons"]
                    else { return nil }
                    return Set(reasons.map(\.key))
                }
                try await eventually("a healthy /healthz") { await unhealthy() == [] }
                // Every provider down: the price watch fails over to the backup, which fails too.
                await simnet.shutdown()
                try await eventually(timeout: .seconds(90), "both providers unreachable") {
                    await unhealthy() == ["primary", "backup"]
                }
                // Back up: the primary takes the watch back, and the backup, which no job asks now, recovers as well.
                simnet = try await Simnet.restart(configuration)
                try await eventually(timeout: .seconds(90), "every provider healthy again") { await unhealthy() == [] }
            }
        } catch {
            await simnet.shutdown()
            throw error
        }
        await simnet.shutdown()
        #expect(status == 0)
    }
}

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WatcherSimnet
import WatcherTestSupport
import WatcherTesting

/// `watcher run --http` as a real process: `/metrics` parses with Prometheus' own text parser, and `/healthz`
/// follows the provider going away and coming back.
@Suite(.serialized)
struct StatusServerTests {

    @Test func metricsParseAndHealthFollowsTheProvider() async throws {
        let data = EngineHarness.dataDirectory()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        var configuration = SimnetConfiguration(chain: ChainParameters(seed: 3, txsPerBlock: 2))
        var simnet = try await Simnet.start(configuration)
        configuration.port = simnet.port  // it comes back on the same port
        let followed = try #require(await simnet.addresses().first(where: \.funded)?.address)
        let config = try DaemonConfig(
            data: data,
            simnetURL: simnet.baseURL,
            timeout: "1s",
            addresses: [followed],
            currencies: ["USD"]
        ).write()
        let daemon = try await StatusDaemon.start(config: config, data: data, arguments: ["--check-interval", "2s"])
        let status: Int32
        do {
            status = try await daemon.whileRunning { client in
                let base = daemon.base
                try await eventually("a healthy /healthz") {
                    (try? await DaemonHarness.get(client, "\(base)/healthz"))?.status == 200
                }
                _ = try await simnet.mine(count: 1)
                try await eventually("events to be emitted") {
                    (try? await DaemonHarness.get(client, "\(base)/metrics"))?.body.contains(
                        "watcher_events_emitted_total"
                    )
                        == true
                }
                let metrics = try await DaemonHarness.get(client, "\(base)/metrics")
                let parsed = try await DaemonHarness.prometheusParse(metrics.body)
                #expect(parsed.status == 0, "prometheus_client could not parse /metrics: \(parsed.output)")
                for family in [
                    "watcher_provider_requests", "watcher_events_emitted", "watcher_rate_limiter_wait_seconds",
                    "watcher_sink_lag_events",
                ] {
                    #expect(parsed.output.contains(family), "\(family) missing from /metrics")
                }
                try await eventually("a stored block") {
                    (try? await DaemonHarness.get(client, "\(base)/api/blocks"))?.body.contains("\"merkleRoot\"")
                        == true
                }
                for bad in ["0", "-1", "abc", "1001"] {
                    let answer = try await DaemonHarness.get(client, "\(base)/api/blocks?limit=\(bad)")
                    #expect(answer.status == 400 && answer.body.contains("limit must be an integer from 1 to 1000"))
                }
                #expect(try await DaemonHarness.get(client, "\(base)/api/blocks?limit=1").status == 200)
                // Healthy once the provider answered; a request timed out on a loaded machine may flip it for a poll.
                try await eventually(timeout: .seconds(60), "/healthz HEAD 200") {
                    (try? await DaemonHarness.get(client, "\(base)/healthz", method: .HEAD))?.status == 200
                }
                #expect(try await DaemonHarness.get(client, "\(base)/healthz", method: .POST).status == 405)
                let accounts = try await DaemonHarness.get(client, "\(base)/api/accounts")
                #expect(accounts.status == 200)

                // The provider goes away: 503 within one check interval (2 s) plus a poll.
                await simnet.shutdown()
                let stopped = ContinuousClock.now
                try await eventually(timeout: .seconds(60), "/healthz to turn 503") {
                    (try? await DaemonHarness.get(client, "\(base)/healthz"))?.status == 503
                }
                #expect(ContinuousClock.now - stopped < .seconds(6))
                let degraded = try await DaemonHarness.get(client, "\(base)/healthz")
                #expect(degraded.body.contains("\"bb\""))
                // It comes back on the same port: 200 again.
                simnet = try await Simnet.restart(configuration)
                try await eventually(timeout: .seconds(60), "/healthz to turn 200 again") {
                    (try? await DaemonHarness.get(client, "\(base)/healthz"))?.status == 200
                }
            }
        } catch {
            await simnet.shutdown()
            throw error
        }
        await simnet.shutdown()
        #expect(status == 0)
    }
}

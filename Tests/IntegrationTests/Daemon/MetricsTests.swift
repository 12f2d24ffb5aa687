import AsyncHTTPClient
import Foundation
import Testing
import WatcherCore
import WatcherSimnet
import WatcherTestSupport
import WatcherTesting

/// `/metrics` of a real `watcher run` carries every family `docs/operations.md` documents and the alert rules
/// and dashboard use, parses with Prometheus' reference parser, and its delivery counters move with deliveries.
@Suite(.serialized)
struct MetricsTests {
    /// Every family an operator alerts on (issue 14's list), as `# TYPE` names.
    static let required = [
        "watcher_provider_requests_total", "watcher_provider_429_total", "watcher_provider_http_requests_total",
        "watcher_provider_http_request_duration_seconds", "watcher_rate_limiter_wait_seconds",
        "watcher_rate_limiter_tokens", "watcher_rate_limiter_rate_per_second", "watcher_provider_circuit_state",
        "watcher_provider_up", "watcher_provider_tip_height", "watcher_provider_lag_blocks", "watcher_chain_tip_height",
        "watcher_chain_seconds_since_last_block", "watcher_followed_addresses", "watcher_events_emitted_total",
        "watcher_sink_deliveries_total", "watcher_sink_failures_total", "watcher_sink_retries_total",
        "watcher_sink_dead_letters", "watcher_sink_lag_events", "watcher_sink_lag_seconds",
        "watcher_sink_delivery_duration_seconds", "watcher_sink_http_requests_total",
        "watcher_sink_http_request_duration_seconds", "watcher_lmdb_map_used_bytes", "watcher_lmdb_map_size_bytes",
        "watcher_lmdb_map_max_bytes", "watcher_store_errors_total", "process_resident_memory_bytes",
        "process_cpu_seconds_total",
        "process_open_fds", "process_start_time_seconds",
    ]

    /// The `# TYPE` names of a scrape.
    static func families(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) })
    }

    /// Metric names a PromQL-bearing file refers to, without histogram suffixes.
    static func referenced(in text: String) throws -> Set<String> {
        let pattern = try Regex(#"\b(?:watcher|process)_[a-z0-9_]+"#)
        return Set(
            text.matches(of: pattern).map { match in
                var name = String(text[match.range])
                for suffix in ["_bucket", "_count", "_sum"] where name.hasSuffix(suffix) {
                    name = String(name.dropLast(suffix.count))
                }
                return name
            }
        )
    }

    static var docs: URL {
        WebDaemon.repository.appendingPathComponent("docs")
    }

    @Test func everyFamilyIsThereAndTheDeliveryCountersMove() async throws {
        let refusing = try RefusingPort()  // held until the test ends: the webhook's endpoint never answers
        let deadPort = refusing.port
        defer { withExtendedLifetime(refusing) {} }
        let data = EngineHarness.dataDirectory()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        var configuration = SimnetConfiguration(seed: 9, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 9, txsPerBlock: 2)
        try await Simnet.with(configuration) { simnet in
            // The price feed allows one request a minute: the second one draws a 429.
            await simnet.setRateLimit(family: .coindesk, RateLimit(requests: 1, per: .seconds(60), burst: 1))
            let followed = try #require(await simnet.addresses().first(where: \.funded)?.address)
            let config = "\(data)/watcher.json"
            try """
            {"storage": {"path": "\(data)"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "\(simnet.baseURL)", "timeout": "2s"},
                            "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}},
                           {"id": "bb2", "type": "blockbook", "options": {"url": "\(simnet.baseURL)", "timeout": "2s"},
                            "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}},
                           {"id": "cd", "type": "coindesk", "options": {"url": "\(simnet.baseURL)", "timeout": "2s"},
                            "rateLimit": {"requests": 60, "per": "1m"}}],
             "watches": [{"id": "tip", "type": "blocks", "providers": ["bb", "bb2"], "every": "1s"},
                         {"id": "wallet", "type": "address", "providers": ["bb"], "every": "1s", "addresses": ["\(followed)"]},
                         {"id": "usd", "type": "price", "providers": ["cd"], "every": "1s"}],
             "sinks": [{"id": "file", "type": "file", "options": {"path": "\(data)/events.jsonl"}},
                       {"id": "hook", "type": "webhook", "events": ["block.*"],
                        "options": {"url": "http://127.0.0.1:\(deadPort)/hook", "maxAttempts": 2,
                                    "initialBackoff": "100ms", "maxBackoff": "200ms", "timeout": "1s"}}]}
            """.write(toFile: config, atomically: true, encoding: .utf8)
            let daemon = try await StatusDaemon.start(
                config: config,
                data: data,
                arguments: ["--check-interval", "1s"]
            )
            let status = try await daemon.whileRunning { client in
                let url = "\(daemon.base)/metrics"
                @Sendable func scrape() async -> String { (try? await DaemonHarness.get(client, url))?.body ?? "" }
                _ = try await simnet.mine(count: 1)
                try await eventually(timeout: .seconds(60), "every family on /metrics, and a dead letter") {
                    let text = await scrape()
                    return Self.families(text).isSuperset(of: Self.required)
                        && DaemonHarness.value(
                            text,
                            #"watcher_sink_deliveries_total{sink="hook",outcome="dead_lettered"}"#
                        )
                            != nil
                }
                let text = await scrape()
                let parsed = try await DaemonHarness.prometheusParse(text)
                #expect(parsed.status == 0, "prometheus_client could not parse /metrics: \(parsed.output)")
                // Up once it answers: a request timed out on a loaded machine marks it down until the next one.
                try await eventually(timeout: .seconds(60), "watcher_provider_up of bb to be 1") {
                    DaemonHarness.value(await scrape(), #"watcher_provider_up{provider="bb"}"#) == 1
                }
                #expect(DaemonHarness.value(text, #"watcher_followed_addresses{watch="wallet"}"#) == 1)
                #expect((DaemonHarness.value(text, #"watcher_provider_429_total{provider="cd"}"#) ?? 0) >= 1)
                #expect(
                    (DaemonHarness.value(text, #"watcher_sink_deliveries_total{sink="hook",outcome="dead_lettered"}"#)
                        ?? 0) >= 1
                )
                #expect((DaemonHarness.value(text, "watcher_lmdb_map_used_bytes") ?? 0) > 0)
                #expect((DaemonHarness.value(text, "process_resident_memory_bytes") ?? 0) > 1_048_576)
                #expect(!text.contains(followed), "an address became a label")

                // The file sink's delivered counter moves when a block brings new events.
                let before =
                    DaemonHarness.value(text, #"watcher_sink_deliveries_total{sink="file",outcome="delivered"}"#) ?? 0
                _ = try await simnet.mine(count: 1)
                try await eventually(timeout: .seconds(60), "the delivered counter to move") {
                    let now = DaemonHarness.value(
                        await scrape(),
                        #"watcher_sink_deliveries_total{sink="file",outcome="delivered"}"#
                    )
                    return (now ?? 0) > before
                }

                // Every metric the alert rules and the dashboard use is one the daemon emits.
                let emitted = Self.families(await scrape())
                for file in ["alerts.yml", "grafana-dashboard.json"] {
                    let names = try Self.referenced(
                        in: String(contentsOf: Self.docs.appendingPathComponent(file), encoding: .utf8)
                    )
                    #expect(!names.isEmpty)
                    #expect(names.subtracting(emitted).isEmpty, "\(file) uses \(names.subtracting(emitted).sorted())")
                }
            }
            #expect(status == 0)
        }
    }
}

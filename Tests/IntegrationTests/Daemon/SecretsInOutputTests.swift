import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WatcherSimnet
import WatcherTestSupport
import WatcherTesting

/// No secret appears in anything `watcher` says, at any level: a real `watcher run` at `trace`, with a `${ENV}`
/// secret in every place the config takes one (the node's password, every HTTP provider's headers, a price feed's
/// URL token, the webhook's URL token, signing secret and headers, the PostgreSQL password) and a `--http-token`,
/// through a run that delivers, retries, fails a sink, reloads on SIGHUP and answers every status endpoint; then
/// `watcher check` and `check --online` with the same environment. Each secret's value is searched for in all of it.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct SecretsInOutputTests {

    static func get(_ client: HTTPClient, _ url: String, token: String? = nil, method: HTTPMethod = .GET)
        async throws -> String
    {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if method == .POST { request.body = .bytes(ByteBuffer(string: #"{"address": "bc1qnot"}"#)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 8 << 20)
        return "\(response.status.code) \(response.headers) \(String(buffer: body))"
    }

    @Test func noSecretInTheLogAtTraceNorInAnyAnswer() async throws {
        var configuration = EngineHarness.quiet
        configuration.rpcPassword = SecretsHarness.nodePassword
        let receiver = Receiver(secret: SecretsHarness.hookSecret, failFirst: 3)
        let refusing = try RefusingPort()  // the PostgreSQL sink's server: it never answers
        defer { withExtendedLifetime(refusing) {} }
        try await Harness.withData(configuration) { simnet, client, data in
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            let followed = try #require(await simnet.addresses().first(where: \.funded)?.address)
            try await receiver.serve { hook in
                let path = "\(data)/watcher.json"
                func write(every: String) throws {
                    let text = SecretsHarness.config(
                        data,
                        simnet: simnet.baseURL,
                        hook: hook,
                        deadPort: refusing.port,
                        followed: followed,
                        every: every
                    )
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                }
                try write(every: "1s")
                let port = try freePort()
                let base = "http://127.0.0.1:\(port)"
                let daemon = try WatcherProcess(
                    ["run", "--config", path, "--http", "127.0.0.1:\(port)", "--http-token", SecretsHarness.httpToken],
                    environment: SecretsHarness.environment.merging(["WATCHER_LOG_LEVEL": "trace"]) { $1 }
                )
                var answers: [String] = []
                do {
                    try await daemon.waitForOutput("status server listening", timeout: .seconds(60))
                    _ = try await simnet.mine(count: 1)
                    // Deliveries, retries (the receiver refuses its first three) and the PostgreSQL sink failing.
                    try await eventually(timeout: .seconds(90), "a webhook delivery after three refusals") {
                        !receiver.delivered.isEmpty && receiver.attempts > 3
                    }
                    // A provider that cannot be reached (its URL carries a token): its failure is logged, and
                    // /healthz gives the reason.
                    try await eventually(timeout: .seconds(90), "/healthz to report the unreachable provider") {
                        try await Self.get(client, base + "/healthz").contains(#""down": false"#)
                    }
                    try await eventually(timeout: .seconds(90), "the PostgreSQL sink to fail") {
                        let metrics = try await Self.get(client, base + "/metrics")
                        return metrics.split(separator: "\n").contains {
                            $0.hasPrefix("watcher_sink_failures_total") && $0.contains(#"sink="pg""#)
                        }
                    }
                    for endpoint in [
                        "/healthz", "/metrics", "/api/blocks", "/api/accounts", "/api/wallets", "/api/prices",
                        "/api/events?limit=1000", "/", "/ui/blocks", "/ui/accounts", "/ui/prices", "/ui/events",
                    ] {
                        answers.append(try await Self.get(client, base + endpoint))
                    }
                    answers.append(try await Self.get(client, base + "/api/accounts", token: "wrong", method: .POST))
                    answers.append(
                        try await Self.get(
                            client,
                            base + "/api/accounts",
                            token: SecretsHarness.httpToken,
                            method: .POST
                        )
                    )
                    // A reload logs what changed.
                    try write(every: "2s")
                    daemon.signal(SIGHUP)
                    try await daemon.waitForOutput("configuration reloaded", timeout: .seconds(60))
                    answers.append(try await Self.get(client, base + "/healthz"))
                } catch {
                    daemon.signal(SIGKILL)
                    throw error
                }
                daemon.signal(SIGTERM)
                let run = try await daemon.wait(timeout: .seconds(30))
                #expect(run.status == 0, "\(run.stderr.suffix(2000))")
                // The run was logged at trace (the test looks where the secrets could be).
                #expect(run.stderr.contains("trace"), "\(run.stderr.prefix(2000))")
                let check = try await WatcherProcess.run(
                    ["check", "--config", path],
                    environment: SecretsHarness.environment
                )
                #expect(check.status == 0, "\(check.stderr)")
                let online = try await WatcherProcess.run(
                    ["check", "--online", "--config", path],
                    environment: SecretsHarness.environment
                )
                let outputs = [
                    ("the daemon's stderr", run.stderr), ("the daemon's stdout", run.stdout),
                    ("check", check.stdout + check.stderr), ("check --online", online.stdout + online.stderr),
                    ("the status server's answers", answers.joined(separator: "\n")),
                ]
                for (name, text) in outputs {
                    for needle in SecretsHarness.needles {
                        let lines = text.split(separator: "\n").filter { $0.contains(needle) }
                        #expect(lines.isEmpty, "\(needle) in \(name): \(lines.prefix(3).map { $0.prefix(600) })")
                    }
                }
            }
        }
    }
}

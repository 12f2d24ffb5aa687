import Foundation
import Testing
import WatcherSimnet
import WatcherTesting

/// A `bitcoind` provider whose node runs another chain than the config's: `watcher run` stops with exit 2 and one
/// line naming the provider, what the node says and what the config says (at start, and when the node changes
/// later), `watcher check` stays offline, and `watcher check --online` exits 2 with the same words. The password
/// never shows.
@Suite(.serialized)
struct NodeChainMismatchTests {
    static let password = "s3cret-chain-pw-77d1"
    static let expected =
        #"provider node: the node is on "test" (getblockchaininfo.chain), the config says chain "btc", which is "main""#

    /// Runs `body` with a simnet whose node claims `chain`, and a config (its path) with one `bitcoind` provider on
    /// `btc` and a blocks watch.
    static func withNode(
        claiming chain: String,
        _ body: (Simnet, String) async throws -> Void
    ) async throws {
        let data = EngineHarness.dataDirectory()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        var configuration = SimnetConfiguration(seed: 11, port: 0, blockInterval: nil)
        configuration.rpcPassword = password
        let simnet = try await Simnet.start(configuration)
        await simnet.setNodeSettings(NodeSettings(chain: chain))
        let config = "\(data)/watcher.json"
        try """
        {"storage": {"path": "\(data)"},
         "providers": [{"id": "node", "type": "bitcoind", "chain": "btc",
                        "options": {"url": "\(simnet.baseURL)", "timeout": "2s",
                                    "user": "watcher", "password": "${NODE_PW}"}}],
         "watches": [{"id": "tip", "type": "blocks", "providers": ["node"], "every": "1s"}],
         "sinks": []}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        do {
            try await body(simnet, config)
        } catch {
            await simnet.shutdown()
            throw error
        }
        await simnet.shutdown()
    }

    static var environment: [String: String] { ["NODE_PW": password] }

    @Test func runStopsWithExit2WhenTheNodeIsOnAnotherChainAtStart() async throws {
        try await Self.withNode(claiming: "test") { _, config in
            let result = try await WatcherProcess.run(
                ["run", "--config", config],
                environment: Self.environment,
                timeout: .seconds(90)
            )
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("error: " + Self.expected), "\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains(Self.password))
        }
    }

    @Test func runStopsWithExit2WhenTheNodeChangesChainLater() async throws {
        try await Self.withNode(claiming: "main") { simnet, config in
            let running = try WatcherProcess(["run", "--config", config], environment: Self.environment)
            try await running.waitForOutput("watcher started", timeout: .seconds(60))
            // The tip job has read the node on its own chain before the switch.
            try await eventually(timeout: .seconds(60), "a getblockchaininfo answered") {
                await simnet.stats().log.contains { $0.family == .bitcoind && $0.status == 200 }
            }
            await simnet.setNodeSettings(NodeSettings(chain: "test"))
            let result = try await running.wait(timeout: .seconds(90))
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("error: " + Self.expected), "\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains(Self.password))
        }
    }

    @Test func checkIsOfflineAndCheckOnlineExits2OnAnotherChain() async throws {
        try await Self.withNode(claiming: "test") { simnet, config in
            let offline = try await WatcherProcess.run(["check", "--config", config], environment: Self.environment)
            #expect(offline.status == 0, "\(offline.stderr)")
            #expect(await simnet.stats().log.filter { $0.family == .bitcoind }.isEmpty, "check made a request")

            let online = try await WatcherProcess.run(
                ["check", "--online", "--config", config],
                environment: Self.environment
            )
            #expect(online.status == 2, "\(online.stderr)")
            #expect(online.stdout.contains("node: WRONG CHAIN: " + Self.expected), "\(online.stdout)")
            #expect(online.stderr.contains("error: " + Self.expected), "\(online.stderr)")
            #expect(!(online.stdout + online.stderr).contains(Self.password))

            await simnet.setNodeSettings(NodeSettings(chain: "main"))
            let good = try await WatcherProcess.run(
                ["check", "--online", "--config", config],
                environment: Self.environment
            )
            #expect(good.status == 0, "\(good.stderr)")
            #expect(good.stdout.contains("node: healthy on chain btc, best height"), "\(good.stdout)")
        }
    }

    @Test func probeExits2WithTheSameWords() async throws {
        try await Self.withNode(claiming: "test") { _, config in
            let probe = try await WatcherProcess.run(
                ["probe", "--config", config, "node", "tip"],
                environment: Self.environment
            )
            #expect(probe.status == 2, "\(probe.stderr)")
            #expect(probe.stderr.contains("error: " + Self.expected), "\(probe.stderr)")
            #expect(!probe.stderr.contains("provider node: provider node"), "\(probe.stderr)")
        }
    }
}

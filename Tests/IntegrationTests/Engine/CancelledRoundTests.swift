import Foundation
import Testing
import WatcherSimnet
import WatcherTestSupport
import WatcherTesting

/// A round that a SIGHUP reload cancels is not a provider failure: a polled wallet's round of 200 summaries, slowed
/// by the provider's budget, is cut short by a reload that rebuilds the engine, and the log blames nobody for it (it
/// said "no summary for N wallet address(es)" of the provider).
@Suite(.serialized, .timeLimit(.minutes(3)))
struct CancelledRoundTests {
    static func config(_ data: String, simnet: String, every: String) -> String {
        """
        {"storage": {"path": "\(data)"},
         "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "\(simnet)", "timeout": "5s"},
                        "rateLimit": {"requests": 20, "per": "1s", "burst": 1, "concurrency": 2}}],
         "watches": [{"id": "shop", "type": "wallet", "providers": ["bb"], "every": "\(every)", "strategy": "poll",
                      "descriptor": "\(WalletHarness.descriptor)", "gap": 100}],
         "sinks": [{"id": "out", "type": "stdout", "options": {"format": "jsonl"}}]}
        """
    }

    @Test func aRoundCancelledByAReloadIsNotLoggedAsAFailure() async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, _, data in
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            let path = "\(data)/watcher.json"
            try Self.config(data, simnet: simnet.baseURL, every: "1m").write(
                toFile: path,
                atomically: true,
                encoding: .utf8
            )
            let before = await simnet.stats().families[.blockbook]?.requests ?? 0
            let daemon = try WatcherProcess(["run", "--config", path], environment: ["WATCHER_LOG_LEVEL": "info"])
            do {
                try await daemon.waitForOutput("watcher started")
                // The round is under way: 20 of its 200 summaries asked, about ten seconds of it left.
                try await eventually(timeout: .seconds(60), "the wallet's round to be under way") {
                    (await simnet.stats().families[.blockbook]?.requests ?? 0) >= before + 20
                }
                try Self.config(data, simnet: simnet.baseURL, every: "2m").write(
                    toFile: path,
                    atomically: true,
                    encoding: .utf8
                )
                daemon.signal(SIGHUP)
                try await daemon.waitForOutput("configuration reloaded")
            } catch {
                daemon.signal(SIGKILL)
                throw error
            }
            daemon.signal(SIGTERM)
            let run = try await daemon.wait(timeout: .seconds(30))
            #expect(run.status == 0, "\(run.stderr.suffix(2000))")
            let blamed = run.stderr.split(separator: "\n").filter {
                // What the cancel itself made a round throw (a slow answer under load is another matter).
                $0.contains("shop failed") && ($0.contains("no summary") || $0.lowercased().contains("cancel"))
            }
            #expect(blamed.isEmpty, "\(blamed)")
        }
    }
}

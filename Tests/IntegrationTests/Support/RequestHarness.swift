import Foundation
import Testing
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// What the payment request suites share: a config with the test wallet taking requests (polled every second, so
/// the mempool is seen), a blocks watch, a price watch and a file sink; the CLI as a real process; and the
/// `request.*` events the sink wrote.
enum RequestHarness {
    /// Writes the config; `requests` is the wallet's `requests` block.
    static func config(_ simnet: Simnet, _ data: String, requests: String = "{}") throws -> String {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [
               {"id": "bb", "type": "blockbook", "options": {"url": "\(simnet.baseURL)", "timeout": "2s"},
                "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}},
               {"id": "cd", "type": "coindesk", "options": {"url": "\(simnet.baseURL)", "timeout": "2s"},
                "rateLimit": {"requests": 600, "per": "1m", "burst": 10}}],
             "watches": [
               {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
               {"id": "eur", "type": "price", "providers": ["cd"], "currency": "EUR", "every": "2s"},
               {"id": "shop", "type": "wallet", "providers": ["bb"], "every": "1s", "strategy": "poll",
                "descriptor": "\(WalletHarness.descriptor)", "gap": 3, "label": "Shop", "requests": \(requests)}
             ],
             "sinks": [{"id": "file", "type": "file", "options": {"path": "\(data)/events.jsonl"}}]}
            """
        let path = "\(data)/watcher.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `watcher requests <arguments> --json`, which must succeed.
    static func cli(_ arguments: [String], config: String) async throws -> JSONValue {
        let result = try await WatcherProcess.run(["requests"] + arguments + ["--config", config, "--json"])
        #expect(result.status == 0, "\(arguments): \(result.stderr) \(result.stdout)")
        return try JSONValue.parse(result.stdout)
    }

    /// Every event the file sink wrote.
    static func events(_ data: String) -> [JSONValue] {
        let text = (try? String(contentsOfFile: "\(data)/events.jsonl", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
    }

    /// The `request.*` events of request `id`, in order.
    static func events(_ data: String, request id: String) -> [JSONValue] {
        events(data).filter { $0["subject"] == .string(id) && $0["type"]?.stringValue?.hasPrefix("request.") == true }
    }

    /// The types of request `id`'s events.
    static func types(_ data: String, request id: String) -> [String] {
        events(data, request: id).compactMap { $0["type"]?.stringValue }
    }

    /// Waits until request `id` has an event of `type` (the `occurrence`-th one), and returns it.
    @discardableResult
    static func wait(
        _ data: String,
        _ id: String,
        _ type: String,
        occurrence: Int = 1,
        timeout: Duration = .seconds(60)
    )
        async throws -> JSONValue
    {
        try await eventuallyValue(timeout: timeout, "\(type) for \(id): \(types(data, request: id))") {
            let found = events(data, request: id).filter { $0["type"] == .string(type) }
            return found.count >= occurrence ? found[occurrence - 1] : nil
        }
    }

    /// Every event id in the sink, each once: nothing was told twice.
    static func expectNoRepeatedIDs(_ data: String) {
        let ids = events(data).compactMap { $0["id"]?.stringValue }
        #expect(Set(ids).count == ids.count, "repeated event ids in \(ids.count) events")
    }

    /// The request's `dueSat` and `paidSat` on each of its events.
    static func amounts(_ data: String, request id: String) -> [String] {
        events(data, request: id).map {
            "\($0["type"]?.stringValue ?? ""):\($0["data"]?["dueSat"]?.serialized() ?? "-")/\($0["data"]?["paidSat"]?.serialized() ?? "-")"
        }
    }

    /// Runs `body` with a simnet, a started daemon on its config and the data directory.
    static func withDaemon(
        requests: String = "{}",
        seed: UInt64 = 9,
        _ body: (Simnet, String, String) async throws -> Void
    ) async throws {
        let configuration = SimnetConfiguration(
            chain: ChainParameters(seed: seed, txsPerBlock: 1, mempoolTxsPerBlock: 0, fundedAddressCount: 20)
        )
        try await Harness.withData(configuration) { simnet, _, data in
            let config = try config(simnet, data, requests: requests)
            let daemon = try WatcherProcess.daemon(config: config)
            defer { daemon.signal(SIGTERM) }
            try await body(simnet, config, data)
            #expect(try await WatcherProcess.stop(daemon) == 0)
        }
    }
}

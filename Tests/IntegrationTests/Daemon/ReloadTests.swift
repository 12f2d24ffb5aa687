import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

/// SIGHUP reloads the config of a real `watcher run`: a watch added to the file announces a payment from the same
/// process, and a broken file is refused (every problem logged with its path) while the daemon goes on announcing with
/// the configuration it had. `/healthz` and `watcher_config_reloads_total` report the last reload.
@Suite(.timeLimit(.minutes(4)))
struct ReloadTests {
    /// The config after the reload: the wallet watch as before, plus a `second` watch of `address`.
    static func withSecondWatch(_ json: String, address: String) -> String {
        json.replacingOccurrences(
            of: #""watches": ["#,
            with: #""watches": [{"id": "second", "type": "address", "providers": ["bb"], "every": "1s", "#
                + #""addresses": ["\#(address)"]},"#
        )
    }

    /// An event in the file sink of `type` whose body mentions `txid`.
    static func announced(_ data: String, type: String, txid: String) -> Bool {
        guard let text = try? String(contentsOfFile: "\(data)/events.jsonl", encoding: .utf8) else { return false }
        return text.split(separator: "\n").contains { $0.contains(#""type":"\#(type)""#) && $0.contains(txid) }
    }

    @Test func sighupAppliesAnAddedWatchAndRefusesABrokenFile() async throws {
        var configuration = SimnetConfiguration(seed: 31, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 31, initialBlocks: 20, txsPerBlock: 3, fundedAddressCount: 10)
        try await Harness.withData(configuration) { simnet, client, data in
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            let funded = await simnet.addresses().filter(\.funded).map(\.address)
            let (first, second) = (funded[0], funded[1])
            let base = DaemonConfig(data: data, simnetURL: simnet.baseURL, addresses: [first])
            let path = try base.write()
            let port = try freePort()
            let daemon = try WatcherProcess(
                ["run", "--config", path, "--http", "127.0.0.1:\(port)"],
                environment: ["WATCHER_LOG_LEVEL": "info"]
            )
            do {
                try await daemon.waitForOutput("watcher started")
                let pid = daemon.process.processIdentifier
                let store = try await DaemonHarness.waitForStore(data)
                defer { Task { await store.close() } }
                try await eventually("the first address's baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: first)?.summary != nil }
                }

                // The file gains a watch; SIGHUP applies it in the same process.
                try Self.withSecondWatch(base.json, address: second).write(
                    toFile: path,
                    atomically: true,
                    encoding: .utf8
                )
                daemon.signal(SIGHUP)
                try await daemon.waitForOutput("configuration reloaded")
                try await eventually("the new watch's baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: second)?.summary != nil }
                }
                let paid = try await simnet.pay(to: second, amountSat: 42_000)
                _ = try await simnet.mine(count: 1)
                try await eventually(timeout: .seconds(60), "the new watch to announce the payment") {
                    Self.announced(data, type: "address.tx.confirmed", txid: paid)
                }
                #expect(daemon.process.isRunning && daemon.process.processIdentifier == pid)

                // A broken file is refused with its path; the daemon announces with the config it had.
                try
                    #"{"storage": {"path": "\#(data)"}, "watches": [{"id": "x", "type": "address", "providers": ["nope"]}]}"#
                    .write(toFile: path, atomically: true, encoding: .utf8)
                daemon.signal(SIGHUP)
                try await daemon.waitForOutput("still running the previous configuration")
                try await daemon.waitForOutput("config reload refused: watches[0].providers[0]")
                let again = try await simnet.pay(to: second, amountSat: 43_000)
                let old = try await simnet.pay(to: first, amountSat: 44_000)
                _ = try await simnet.mine(count: 1)
                try await eventually(timeout: .seconds(60), "both watches to announce after the refused reload") {
                    Self.announced(data, type: "address.tx.confirmed", txid: again)
                        && Self.announced(data, type: "address.tx.confirmed", txid: old)
                }
                #expect(daemon.process.isRunning && daemon.process.processIdentifier == pid)

                // /healthz and the metric report the last reload.
                let health = try await Self.get(client, "http://127.0.0.1:\(port)/healthz")
                let reload = try JSONValue.parse(health)["reload"]
                #expect(reload?["result"]?.stringValue == "failed", "\(health)")
                #expect(health.contains("watches[0].providers[0]"), "\(health)")
                let metrics = try await Self.get(client, "http://127.0.0.1:\(port)/metrics")
                #expect(metrics.contains(#"watcher_config_reloads_total{result="ok"} 1"#), "\(metrics)")
                #expect(metrics.contains(#"watcher_config_reloads_total{result="failed"} 1"#))
            } catch {
                daemon.signal(SIGKILL)
                throw error
            }
            daemon.signal(SIGTERM)
            let result = try await daemon.wait(timeout: .seconds(10))
            #expect(result.status == 0, "\(result.stderr.suffix(2000))")
            // Every event once in the file sink, though its delivery kept its cursor through the reloads.
            let ids = DaemonHarness.fileIDsOrEmpty(data)
            #expect(ids.count == Set(ids).count)
        }
    }

    /// A reload that changes only the sinks keeps the engine and its websocket open; a changed watch restarts the
    /// engine in-process but keeps the push connection, which follows the new address set; a changed provider
    /// reconnects it. The sink that stays keeps its cursor (no duplicates).
    @Test func unchangedPushConnectionsStayOpen() async throws {
        var configuration = SimnetConfiguration(seed: 37, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 37, initialBlocks: 20, txsPerBlock: 3, fundedAddressCount: 10)
        try await Harness.withData(configuration) { simnet, _, data in
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            let funded = await simnet.addresses().filter(\.funded).map(\.address)
            func json(sinks: String, addresses: [String], timeout: String = "2s") -> String {
                let list = addresses.map { "\"\($0)\"" }.joined(separator: ", ")
                return """
                    {"storage": {"path": "\(data)"},
                     "providers": [{"id": "bb", "type": "blockbook",
                                    "options": {"url": "\(simnet.baseURL)", "timeout": "\(timeout)", "websocket": true},
                                    "rateLimit": {"requests": 600, "per": "1m"}}],
                     "watches": [{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
                                 {"id": "wallet", "type": "address", "providers": ["bb"], "addresses": [\(list)]}],
                     "sinks": [\(sinks)]}
                    """
            }
            let file = #"{"id": "file", "type": "file", "options": {"path": "\#(data)/events.jsonl"}}"#
            let other = #"{"id": "other", "type": "file", "options": {"path": "\#(data)/other.jsonl"}}"#
            let path = "\(data)/watcher.json"
            try json(sinks: file, addresses: [funded[0]]).write(toFile: path, atomically: true, encoding: .utf8)
            let daemon = try WatcherProcess(["run", "--config", path], environment: ["WATCHER_LOG_LEVEL": "info"])
            do {
                try await daemon.waitForOutput("watcher started")
                try await eventually("the websocket to connect") { simnet.websocketStats().open == 1 }
                try await eventually("a first event in the file sink") { !DaemonHarness.fileIDsOrEmpty(data).isEmpty }
                try json(sinks: file + ", " + other, addresses: [funded[0]])
                    .write(toFile: path, atomically: true, encoding: .utf8)
                daemon.signal(SIGHUP)
                try await daemon.waitForOutput("restarted=delivery")
                _ = try await simnet.mine(count: 1)
                try await eventually("the added sink to deliver") {
                    (try? String(contentsOfFile: "\(data)/other.jsonl", encoding: .utf8))?.contains("block.new") == true
                }
                #expect(simnet.websocketStats().connections == 1, "\(simnet.websocketStats())")
                #expect(simnet.websocketStats().open == 1)

                // A watch gains an address: the engine restarts, the push connection stays.
                try json(sinks: file + ", " + other, addresses: [funded[0], funded[1]])
                    .write(toFile: path, atomically: true, encoding: .utf8)
                daemon.signal(SIGHUP)
                try await daemon.waitForOutput("restarted=engine [")
                // Followed over the kept connection within a second (its address set is compared every second),
                // not at a 30 s recheck during which a payment to it was neither pushed nor polled.
                try await eventually(timeout: .seconds(10), "the added address subscribed") {
                    simnet.websocketSubscribedAddresses().contains(funded[1])
                }
                let store = try await DaemonHarness.waitForStore(data)
                try await eventually("the added address's baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: funded[1])?.summary != nil }
                }
                await store.close()
                let paid = try await simnet.pay(to: funded[1], amountSat: 45_000)
                _ = try await simnet.mine(count: 1)
                try await eventually(timeout: .seconds(60), "the added address's payment") {
                    Self.announced(data, type: "address.tx.confirmed", txid: paid)
                }
                #expect(simnet.websocketStats().connections == 1, "\(simnet.websocketStats())")
                #expect(simnet.websocketStats().open == 1)

                // The provider changes: everything that uses it restarts, the push connection too.
                try json(sinks: file + ", " + other, addresses: [funded[0], funded[1]], timeout: "3s")
                    .write(toFile: path, atomically: true, encoding: .utf8)
                daemon.signal(SIGHUP)
                try await daemon.waitForOutput("restarted=providers, engine, push")
                try await eventually("the new push connection") {
                    simnet.websocketStats().connections == 2 && simnet.websocketStats().open == 1
                }
            } catch {
                daemon.signal(SIGKILL)
                throw error
            }
            daemon.signal(SIGTERM)
            let result = try await daemon.wait(timeout: .seconds(10))
            #expect(result.status == 0, "\(result.stderr.suffix(2000))")
            let ids = DaemonHarness.fileIDsOrEmpty(data)
            #expect(!ids.isEmpty && ids.count == Set(ids).count, "\(ids.count - Set(ids).count) duplicates")
        }
    }

    static func get(_ client: HTTPClient, _ url: String) async throws -> String {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        return String(buffer: try await response.body.collect(upTo: 4 << 20))
    }
}

import AsyncHTTPClient
import Foundation
import Logging
import ServiceLifecycle
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

@testable import WatcherApp

/// What the engine suites share, written once: a daemon's runtime run on a data directory, the event log read and
/// waited on, and the quiet simnet and one-provider config most of them start from. No suite calls another's
/// statics.
enum EngineHarness {
    /// Runs the runtime's services until `body` returns.
    static func running<T: Sendable>(
        _ config: WatcherConfig,
        client: HTTPClient,
        settings: Engine.Settings? = nil,
        _ body: @Sendable (Store) async throws -> T
    ) async throws -> T {
        // The engine's log at debug level is kept and printed if `body` throws (a timed-out wait), so a failure on
        // CI says what the engine did; `WATCHER_TEST_LOG=debug swift test --filter …` streams it instead.
        let lines = LogLines(timestamps: true)
        var logger = lines.logger
        logger.logLevel = .debug
        if let level = ProcessInfo.processInfo.environment["WATCHER_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) {
            logger = Logger(label: "engine-test \(config.storage.path)")
            logger.logLevel = level
        }
        let store = try Store(path: config.storage.path)
        let runtime = try WatcherRuntime(
            config: config,
            store: store,
            http: client,
            logger: logger,
            engineSettings: settings
        )
        let services = runtime.services
        do {
            let result = try await withThrowingTaskGroup(of: T?.self) { group in
                for service in services {
                    group.addTask {
                        try await service.run()
                        return nil
                    }
                }
                defer { group.cancelAll() }
                return try await body(store)
            }
            await store.close()
            return result
        } catch {
            await store.close()
            let log = lines.all.suffix(200)
            print("engine log of \(config.storage.path) (its last \(log.count) lines):\n\(log.joined(separator: "\n"))")
            throw error
        }
    }

    /// A temporary data directory.
    static func dataDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("watcher-engine-\(UUID().uuidString)").path
    }

    /// Waits for an event of `type` matching `match`, and returns it.
    @discardableResult
    static func event(
        _ store: Store,
        _ type: String,
        timeout: Duration = .seconds(30),
        where match: @escaping @Sendable (JSONValue) -> Bool = { _ in true }
    ) async throws -> JSONValue {
        var found: JSONValue?
        do {
            try await eventually(timeout: timeout, type) {
                found = try events(store).last { $0["type"] == .string(type) && match($0["data"] ?? .null) }
                return found != nil
            }
        } catch let error as TimedOut {
            // What the log holds instead, so a failure on a loaded CI machine says what the engine did.
            throw TimedOut(what: "\(error.what) (the log holds: \(try logSummary(store)))")
        }
        return found ?? .null
    }

    /// Every event in the log, parsed.
    static func events(_ store: Store) throws -> [JSONValue] {
        try store.read { try $0.events() }.compactMap { try? JSONValue.parse($0.body) }
    }

    static func has(_ key: String, _ value: String) -> @Sendable (JSONValue) -> Bool {
        { $0[key] == .string(value) }
    }

    /// A quiet simnet: only the tests' payments move followed addresses.
    static let quiet = SimnetConfiguration(
        chain: ChainParameters(seed: 9, txsPerBlock: 1, mempoolTxsPerBlock: 0, fundedAddressCount: 20)
    )

    static let followed = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"

    /// A config of `watches` over one Blockbook provider `bb` (its websocket on, as by default, unless `websocket`
    /// is false; each request given `timeout`) and `extraProviders`.
    static func config(
        _ simnet: Simnet,
        _ data: String,
        watches: String,
        extraProviders: String = "",
        websocket: Bool = true,
        timeout: String = "2s"
    ) throws -> WatcherConfig {
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [{"id": "bb", "type": "blockbook",
                            "options": {"url": "\(simnet.baseURL)", "timeout": "\(timeout)", "websocket": \(websocket)},
                            "rateLimit": {"requests": 6000, "per": "1m", "burst": 100, "concurrency": 4}}\(extraProviders)],
             "watches": \(watches),
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    /// The log's events as `type` lines, with the provider and reason of `provider.*` events and the txid and
    /// block height of payments: what a timed-out wait shows.
    static func logSummary(_ store: Store) throws -> String {
        let lines = try events(store).map { event -> String in
            let data = event["data"] ?? .null
            let details = ["provider", "reason", "txid", "blockHeight", "outcome"].compactMap { key -> String? in
                switch data[key] {
                case .string(let text)?, .number(let text)?: return "\(key)=\(text)"
                default: return nil
                }
            }
            let time = event["time"]?.stringValue.map { "\($0) " } ?? ""
            return time + ([event["type"]?.stringValue ?? "?"] + details).joined(separator: " ")
        }
        return lines.isEmpty ? "no events" : lines.joined(separator: "; ")
    }
}

import Foundation
import Logging
import MetricsTestKit
import PostgresNIO
import ServiceLifecycle
import WatcherCore
import WatcherDelivery
import WatcherEventLog
import WatcherObservability
import WatcherPostgres
import WatcherSinks
import WatcherStorage

let quietLogger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

/// CloudEvents envelopes like the engine's, and log appends.
enum Events {
    static func id(_ n: Int) -> String { "evt_\(n)" }

    static func body(_ n: Int, type: String = "block.new") -> [UInt8] {
        let json = """
            {"specversion":"1.0","id":"\(id(n))","source":"watcher/test","type":"\(type)",\
            "subject":"block-\(n)","time":"2026-01-01T00:00:\(String(format: "%02d", n % 60)).250Z",\
            "datacontenttype":"application/json","data":{"height":\(n),"hash":"h\(n)"}}
            """
        return Array(json.utf8)
    }

    static func sinkEvents(_ range: ClosedRange<Int>) -> [SinkEvent] {
        range.map { SinkEvent(seq: UInt64($0), id: id($0), type: "block.new", body: body($0)) }
    }

    /// Appends events `range` in one commit.
    @discardableResult
    static func append(_ store: Store, _ range: ClosedRange<Int>, signal: LogSignal? = nil) async throws -> [UInt64] {
        let seqs = try await store.write { txn in
            try range.compactMap { try txn.appendEvent(id: id($0), type: "block.new", body: body($0)) }
        }
        signal?.notify()
        return seqs
    }
}

/// Runs `body` with a fresh LMDB store in a temporary directory, closed and deleted afterwards.
func withStore<T: Sendable>(_ body: (Store) async throws -> T) async throws -> T {
    let path = NSTemporaryDirectory() + "watcher-pg-store-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let store = try Store(path: path + "/data")
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
        let result = try await body(store)
        await store.close()
        return result
    } catch {
        await store.close()
        throw error
    }
}

/// A delivery worker over `sink` with fast polling.
func worker(_ sink: PostgresSink, _ store: Store, _ signal: LogSignal, counts: TestMetrics = TestMetrics())
    -> DeliveryWorker
{
    DeliveryWorker(
        sink: sink,
        store: store,
        signal: signal,
        metrics: WatcherMetrics(factory: counts),
        logger: quietLogger,
        time: .system,
        pollInterval: .milliseconds(20)
    )
}

extension TestMetrics {
    /// `watcher_sink_deliveries_total` of `sink` with `outcome` (0 when never counted).
    func sinkEvents(_ sink: String, _ outcome: String) -> Int64 {
        (try? expectCounter("watcher_sink_deliveries_total", [("sink", sink), ("outcome", outcome)]).totalValue) ?? 0
    }

    /// `watcher_sink_failures_total` of `sink`.
    func sinkFailures(_ sink: String) -> Int64 {
        (try? expectCounter("watcher_sink_failures_total", [("sink", sink)]).totalValue) ?? 0
    }
}

/// Sink options for tests: plain TCP, quick retries.
func sinkOptions(
    _ url: String,
    table: String,
    batchSize: Int = 100,
    maxAttempts: Int = 1000
) -> PostgresSinkPlugin.Options {
    PostgresSinkPlugin.Options(
        url: url,
        table: table,
        tls: .disable,
        batchSize: batchSize,
        timeout: .seconds(5),
        maxAttempts: maxAttempts,
        initialBackoff: .milliseconds(10),
        maxBackoff: .milliseconds(200)
    )
}

func cursor(_ store: Store, _ sink: String) throws -> UInt64 {
    try store.read { try $0.cursor(sink: sink) }
}

/// A plain client connection for assertions.
struct SQL: Sendable {
    let connection: PostgresConnection

    static func connect(_ cluster: PostgresCluster) async throws -> SQL {
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1",
            port: cluster.port,
            username: "postgres",
            password: PostgresCluster.password,
            database: "postgres",
            tls: .disable
        )
        return SQL(connection: try await .connect(configuration: configuration, id: 0, logger: quietLogger))
    }

    /// Runs `body` with a connection, closed afterwards.
    static func with<T: Sendable>(_ cluster: PostgresCluster, _ body: (SQL) async throws -> T) async throws -> T {
        let sql = try await connect(cluster)
        do {
            let result = try await body(sql)
            try? await sql.connection.close()
            return result
        } catch {
            try? await sql.connection.close()
            throw error
        }
    }

    /// The text values of the first column.
    func strings(_ query: PostgresQuery) async throws -> [String] {
        var values: [String] = []
        for try await value in try await connection.query(query, logger: quietLogger).decode(String.self) {
            values.append(value)
        }
        return values
    }

    /// One integer.
    func int(_ query: PostgresQuery) async throws -> Int {
        for try await value in try await connection.query(query, logger: quietLogger).decode(Int.self) {
            return value
        }
        return -1
    }

    func count(_ table: String) async throws -> Int {
        try await int(PostgresQuery(unsafeSQL: "select count(*)::int8 from \(table)"))
    }
}

// The postgres sink benchmark: events/s from an LMDB event log through a delivery worker into PostgreSQL, per
// batch size; then the time a second instance (its own log holding the same events) takes to settle its backlog
// into the same table, and the duplicate rows that leaves (expected: 0).
//
//     PG_URL=postgres://user:pass@127.0.0.1:5432/db swift run -c release watcher-postgres-bench [events] [batches…]
//
// Defaults: 20000 events, batch sizes 1 100 1000. Each batch size writes a fresh table `bench_<size>`.

import BenchmarkSupport
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import WatcherCore
import WatcherDelivery
import WatcherEventLog
import WatcherPostgres
import WatcherSinks
import WatcherStorage

let numbers = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let batchSizes = numbers.count > 1 ? Array(numbers.dropFirst()) : [1, 100, 1000]
guard let url = ProcessInfo.processInfo.environment["PG_URL"], let endpoint = try? PostgresEndpoint(parsing: url) else {
    FileHandle.standardError.write(Data("set PG_URL=postgres://user:password@host:port/database\n".utf8))
    exit(2)
}
try await Bench(url: url, endpoint: endpoint, eventCount: numbers.first ?? 20_000).run(batchSizes)

struct Bench {
    let url: String
    let endpoint: PostgresEndpoint
    let eventCount: Int
    let quiet = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A fresh store holding events 1…`count`, appended in commits of 1,000.
    func filledStore() async throws -> (Store, String) {
        let path = try BenchmarkEvents.temporaryDirectory("watcher-pg-bench")
        let store = try Store(path: path)
        for start in stride(from: 1, through: eventCount, by: 1000) {
            let range = start...min(start + 999, eventCount)
            _ = try await store.write { txn in
                for n in range {
                    _ = try txn.appendEvent(
                        id: "evt_\(n)",
                        type: BenchmarkEvents.type,
                        body: BenchmarkEvents.envelope(n)
                    )
                }
            }
        }
        return (store, path)
    }

    /// Delivers the whole log of a fresh store into `table`; returns the seconds from start to the last cursor commit.
    func deliver(into table: String, batchSize: Int) async throws -> Double {
        let (store, path) = try await filledStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let options = PostgresSinkPlugin.Options(url: url, table: table, tls: .disable, batchSize: batchSize)
        let sink = try PostgresSink(id: "db", options: options, logger: quiet)
        let worker = DeliveryWorker(sink: sink, store: store, signal: LogSignal(), logger: quiet, time: .system)
        let group = ServiceGroup(configuration: .init(services: [worker], logger: quiet))
        let started = ContinuousClock.now
        let elapsed = try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            while try store.read({ try $0.cursor(sink: "db") }) < UInt64(eventCount) {
                try await Task.sleep(for: .milliseconds(2))
            }
            let elapsed = ContinuousClock.now - started
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return elapsed
        }
        await store.close()
        let components = elapsed.components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    func rows(_ table: String, _ connection: PostgresConnection) async throws -> (Int, Int) {
        let query = PostgresQuery(unsafeSQL: "select count(*)::int8, count(distinct id)::int8 from \(table)")
        for try await (total, distinct) in try await connection.query(query, logger: quiet).decode((Int, Int).self) {
            return (total, distinct)
        }
        return (0, 0)
    }

    func run(_ batchSizes: [Int]) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: endpoint.host,
                port: endpoint.port,
                username: endpoint.user,
                password: endpoint.password,
                database: endpoint.database,
                tls: .disable
            ),
            id: 1,
            logger: quiet
        )
        print("events: \(eventCount) per run, envelope \(BenchmarkEvents.envelope(1).count) bytes, \(endpoint)")
        for batchSize in batchSizes {
            let table = "bench_\(batchSize)"
            try await connection.query(PostgresQuery(unsafeSQL: "drop table if exists \(table)"), logger: quiet)
            let first = try await deliver(into: table, batchSize: batchSize)
            let second = try await deliver(into: table, batchSize: batchSize)
            let (total, distinct) = try await rows(table, connection)
            let line =
                "batch \(batchSize): \(Int(Double(eventCount) / first)) events/s (\(String(format: "%.2f", first)) s); "
                + "second instance settles in \(String(format: "%.2f", second)) s; rows \(total), duplicates \(total - distinct)"
            print(line)
        }
        try await connection.close()
    }
}

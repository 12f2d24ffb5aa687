import Foundation
import MetricsTestKit
import PostgresNIO
import Testing
import WatcherCore
import WatcherDelivery
import WatcherEventLog
import WatcherSinks
import WatcherStorage
import WatcherTesting

@testable import WatcherPostgres

/// The `postgres` sink against a real PostgreSQL server (a throwaway cluster per test), fed by a real delivery
/// worker from a real LMDB store. Serialized: each test starts its own server, and the machine may be small.
@Suite("Postgres sink", .serialized, .timeLimit(.minutes(3)))
struct PostgresSinkTests {
    /// A `postgres` sink writing to `table` on `cluster` with the tests' options
    /// (``sinkOptions(_:table:batchSize:maxAttempts:)``), logging nothing.
    static func sink(
        _ cluster: PostgresCluster,
        table: String,
        batchSize: Int = 100,
        id: String = "pg",
        password: String = PostgresCluster.password
    ) throws -> PostgresSink {
        let options = sinkOptions(cluster.url(password: password), table: table, batchSize: batchSize)
        return try PostgresSink(id: id, options: options, logger: quietLogger)
    }

    @Test func createsTheTableAndIndexAndReportsInTheSelfTest() async throws {
        try await withCluster { cluster in
            let sink = try Self.sink(cluster, table: "events_a")
            let line = try await sink.selfTest()
            await sink.close()
            #expect(line.contains("table events_a is ready"))
            #expect(line.contains("postgres://postgres@127.0.0.1:\(cluster.port)/postgres"))
            #expect(!line.contains(PostgresCluster.password))
            try await SQL.with(cluster) { sql in
                let columns = try await sql.strings(
                    "select column_name::text from information_schema.columns where table_name = 'events_a' order by ordinal_position"
                )
                #expect(columns == PostgresTable.columns)
                let types = try await sql.strings(
                    "select data_type::text from information_schema.columns where table_name = 'events_a' order by ordinal_position"
                )
                #expect(
                    types == [
                        "text", "text", "text", "text", "timestamp with time zone", "jsonb", "timestamp with time zone",
                    ]
                )
                let key = try await sql.strings(
                    "select indexdef::text from pg_indexes where tablename = 'events_a' order by indexname"
                )
                #expect(key.count == 2)
                #expect(key.contains { $0.contains("(id)") && $0.contains("UNIQUE") })
                #expect(key.contains { $0.contains("events_a_type_time_idx") && $0.contains("(type, \"time\")") })
            }
            // A second sink (another instance) finds the table and leaves it as it is.
            let again = try Self.sink(cluster, table: "events_a", id: "pg2")
            #expect(try await again.selfTest().contains("ready"))
            await again.close()
        }
    }

    @Test func deliversTheLogInBatchesAndMovesTheCursor() async throws {
        try await withCluster { cluster in
            try await withStore { store in
                let signal = LogSignal()
                let sink = try Self.sink(cluster, table: "events_b", batchSize: 100)
                #expect(sink.deliveryPolicy.batchSize == 100)
                try await Events.append(store, 1...250)
                let counts = TestMetrics()
                let worker = worker(sink, store, signal, counts: counts)
                try await whileRunning(worker) {
                    try await eventually(timeout: .seconds(60), "the cursor at 250") { try cursor(store, "pg") == 250 }
                }
                #expect(counts.sinkEvents("pg", "delivered") == 250 && counts.sinkFailures("pg") == 0)
                #expect(counts.sinkEvents("pg", "dead_lettered") == 0)
                try await SQL.with(cluster) { sql in
                    #expect(try await sql.count("events_b") == 250)
                    let row = try await sql.strings(
                        """
                        select concat_ws('|', type, subject, source, to_char(time at time zone 'UTC', 'HH24:MI:SS.MS'),
                            data->>'height', data->>'hash') from events_b where id = 'evt_61'
                        """
                    )
                    #expect(row == ["block.new|block-61|watcher/test|00:00:01.250|61|h61"])
                }
            }
        }
    }

    @Test func deliveringTheSameEventsTwiceStoresOneRowEach() async throws {
        try await withCluster { cluster in
            let sink = try Self.sink(cluster, table: "events_c")
            let first = await sink.deliver(Events.sinkEvents(1...30))
            let second = await sink.deliver(Events.sinkEvents(20...40))
            let third = await sink.deliver(Events.sinkEvents(1...40))
            await sink.close()
            #expect(first == Array(repeating: .delivered, count: 30))
            #expect(second == Array(repeating: .delivered, count: 21))
            #expect(third == Array(repeating: .delivered, count: 40))
            let (rows, ids) = try await SQL.with(cluster) { sql in
                (try await sql.count("events_c"), try await sql.int("select count(distinct id)::int8 from events_c"))
            }
            #expect(rows == 40 && ids == 40)
        }
    }

    /// A SIGKILL between the insert and the cursor commit leaves the cursor behind the table; staged here by
    /// moving the persisted cursor back: the restarted worker redelivers and stores nothing twice.
    @Test func redeliveryFromAnOlderCursorAddsNoDuplicates() async throws {
        try await withCluster { cluster in
            try await withStore { store in
                let signal = LogSignal()
                try await Events.append(store, 1...50)
                let sink = try Self.sink(cluster, table: "events_d", batchSize: 7)
                try await whileRunning(worker(sink, store, signal)) {
                    try await eventually(timeout: .seconds(60), "the cursor at 50") { try cursor(store, "pg") == 50 }
                }
                let before = try await SQL.with(cluster) { sql in
                    try await sql.strings("select id || '@' || inserted_at::text from events_d order by id")
                }
                try await store.write { try $0.setCursor(sink: "pg", 12) }
                try await Events.append(store, 51...60)
                let restarted = try Self.sink(cluster, table: "events_d", batchSize: 7)
                let counts = TestMetrics()
                let second = worker(restarted, store, signal, counts: counts)
                try await whileRunning(second) {
                    try await eventually(timeout: .seconds(60), "the cursor at 60") { try cursor(store, "pg") == 60 }
                }
                #expect(counts.sinkEvents("pg", "delivered") == 48)
                try await SQL.with(cluster) { sql in
                    #expect(try await sql.count("events_d") == 60)
                    let after = try await sql.strings(
                        "select id || '@' || inserted_at::text from events_d order by id"
                    )
                    // The first 50 rows are the original ones, untouched by the redelivery.
                    #expect(before.allSatisfy(after.contains))
                }
            }
        }
    }

    @Test func survivesADatabaseStopAndRestartMidRun() async throws {
        try await withCluster { cluster in
            try await withStore { store in
                let signal = LogSignal()
                let sink = try Self.sink(cluster, table: "events_e", batchSize: 10)
                let counts = TestMetrics()
                let worker = worker(sink, store, signal, counts: counts)
                try await whileRunning(worker) {
                    try await Events.append(store, 1...100, signal: signal)
                    try await eventually(timeout: .seconds(60), "the first 100") { try cursor(store, "pg") == 100 }
                    // Down: deliveries fail (connection refused) and are retried; the cursor stays.
                    try await cluster.stopServer()
                    try await Events.append(store, 101...150, signal: signal)
                    try await eventually(timeout: .seconds(60), "failed attempts") { counts.sinkFailures("pg") >= 2 }
                    let error = worker.status.state(sink: "pg")?.lastError ?? ""
                    #expect(error.contains("cannot connect"), "\(error)")
                    #expect(!error.contains(PostgresCluster.password))
                    #expect(try cursor(store, "pg") == 100)
                    try await cluster.startServer()
                    try await eventually(timeout: .seconds(60), "150 after the outage") {
                        try cursor(store, "pg") == 150
                    }
                    // A restart drops the open connection; the sink reconnects.
                    try await cluster.restart()
                    try await Events.append(store, 151...200, signal: signal)
                    try await eventually(timeout: .seconds(60), "200 after the restart") {
                        try cursor(store, "pg") == 200
                    }
                }
                #expect(counts.sinkEvents("pg", "delivered") == 200 && counts.sinkEvents("pg", "dead_lettered") == 0)
                let rows = try await SQL.with(cluster) { sql in try await sql.count("events_e") }
                #expect(rows == 200)
            }
        }
    }

    @Test func aWrongPasswordGivesAClearErrorWithoutThePassword() async throws {
        try await withCluster { cluster in
            let wrong = "Wrong-Pass-9876"
            let sink = try Self.sink(cluster, table: "events_f", password: wrong)
            let outcomes = await sink.deliver(Events.sinkEvents(1...3))
            guard case .retry(_, let reason) = outcomes.first else {
                Issue.record("expected a retry, got \(outcomes)")
                return
            }
            #expect(outcomes.count == 3)
            #expect(reason.contains("password authentication failed for user \"postgres\""), "\(reason)")
            #expect(reason.contains("28P01"))
            #expect(reason.contains("postgres://postgres@127.0.0.1:\(cluster.port)/postgres"))
            #expect(!reason.contains(wrong))
            do {
                _ = try await sink.selfTest()
                Issue.record("the self test passed with a wrong password")
            } catch {
                #expect("\(error)".contains("password authentication failed"))
                #expect(!"\(error)".contains(wrong))
            }
            await sink.close()
        }
    }
}

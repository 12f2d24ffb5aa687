import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherPostgres

/// Reading and checking `postgres` sink options, without a server.
@Suite("Postgres sink options")
struct PostgresOptionsTests {
    static func read(_ members: [JSONValue.Member], environment: [String: String] = ["PG_PASSWORD": "s3cr3t-Value"])
        -> (PostgresSinkPlugin.Options, ObjectReader)
    {
        let reader = ObjectReader(.object(members), at: .root, context: ConfigContext(environment: environment))
        let options = PostgresSinkPlugin.Options(from: reader)
        reader.finish()
        return (options, reader)
    }

    @Test func readsAURLWithAnEnvironmentPasswordAndDefaults() throws {
        let written = "postgres://watcher:${PG_PASSWORD}@db.internal:6432/events"
        let (options, reader) = Self.read([.init("url", .string(written))])
        #expect(reader.context.issues.isEmpty)
        #expect(options.url == "postgres://watcher:s3cr3t-Value@db.internal:6432/events")
        #expect(options.table == "watcher_events" && options.tls == .prefer && options.batchSize == 100)
        let endpoint = try PostgresEndpoint(parsing: options.url)
        #expect(
            endpoint
                == PostgresEndpoint(
                    host: "db.internal",
                    port: 6432,
                    user: "watcher",
                    password: "s3cr3t-Value",
                    database: "events"
                )
        )
        #expect(endpoint.description == "postgres://watcher@db.internal:6432/events")
        let shown = reader.resolvedJSON.serialized()
        #expect(shown.contains("${PG_PASSWORD}") && !shown.contains("s3cr3t-Value"))
    }

    @Test func masksALiteralPasswordAndWarns() {
        let (_, reader) = Self.read([.init("url", .string("postgresql://u:hunter22@localhost/db"))])
        let shown = reader.resolvedJSON.serialized()
        #expect(!shown.contains("hunter22"))
        #expect(shown.contains("postgresql://u:********@localhost/db"))
        #expect(reader.context.issues.map(\.severity) == [.warning])
    }

    @Test func rejectsBadURLsTablesAndBatchSizes() {
        let cases: [(JSONValue.Member, String)] = [
            (.init("url", .string("http://u:${PG_PASSWORD}@h/db")), "url"),
            (.init("url", .string("postgres://u:${PG_PASSWORD}@h:5432/")), "database"),
            (.init("url", .string("postgres://h:5432/db")), "user"),
        ]
        for (member, word) in cases {
            let (_, reader) = Self.read([member])
            let messages = reader.context.issues.filter { $0.severity == .error }.map(\.description)
            #expect(messages.count == 1, "\(member): \(messages)")
            #expect(messages.contains { $0.contains(word) }, "\(member): \(messages)")
            #expect(!messages.joined().contains("s3cr3t-Value"))
        }
        let url = JSONValue.Member("url", .string("postgres://u:${PG_PASSWORD}@h/db"))
        for table in ["Events", "drop table x;--", "a.b.c", "", "1abc", String(repeating: "a", count: 64)] {
            let (_, reader) = Self.read([url, .init("table", .string(table))])
            #expect(reader.context.issues.count == 1, "table \(table)")
        }
        for size in ["0", "10001"] {
            let (_, reader) = Self.read([url, .init("batchSize", .number(size))])
            #expect(reader.context.issues.count == 1, "batchSize \(size)")
        }
        let (_, reader) = Self.read([url, .init("tls", .string("verify-full"))])
        #expect(reader.context.issues.count == 1)
        let (options, good) = Self.read([
            url, .init("table", .string("audit.chain_events")), .init("tls", .string("require")),
        ])
        #expect(
            good.context.issues.isEmpty && options.tls == .require && PostgresTable(options.table)?.schema == "audit"
        )
    }

    @Test func anUnsetPasswordVariableIsAnError() {
        let (_, reader) = Self.read([.init("url", .string("postgres://u:${PG_PASSWORD}@h/db"))], environment: [:])
        #expect(reader.context.issues.contains { $0.severity == .error && $0.description.contains("PG_PASSWORD") })
    }
}

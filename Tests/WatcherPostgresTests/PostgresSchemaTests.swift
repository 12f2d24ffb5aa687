import PostgresNIO
import Testing

@testable import WatcherPostgres

/// `watcher sinks test` (the sink's self test) checks an existing table's column types against the schema the
/// sink creates, not only their names.
@Suite("Postgres schema check", .serialized, .timeLimit(.minutes(3)))
struct PostgresSchemaTests {
    @Test func problemsNameMissingColumnsAndWrongTypes() {
        #expect(PostgresTable.problems(PostgresTable.schema).isEmpty)
        var found = PostgresTable.schema.filter { $0.name != "source" }
        found[found.firstIndex { $0.name == "data" }!].type = "json"
        #expect(
            PostgresTable.problems(found) == [
                "lacks the columns source", "has column data of type json, the sink creates it as jsonb",
            ]
        )
    }

    @Test func theSelfTestRefusesATableWithTheRightNamesAndWrongTypes() async throws {
        try await withCluster { cluster in
            try await SQL.with(cluster) { sql in
                _ = try await sql.strings(
                    """
                    create table events_typed (id text primary key, type text not null, subject text, source text,
                        time text, data json, inserted_at timestamptz not null default now())
                    """
                )
            }
            let sink = try PostgresSinkTests.sink(cluster, table: "events_typed")
            do {
                let line = try await sink.selfTest()
                Issue.record("the self test accepted text and json columns: \(line)")
            } catch {
                let text = "\(error)"
                #expect(
                    text.contains("table events_typed has column time of type text")
                        && text.contains("the sink creates it as timestamp with time zone")
                        && text.contains("has column data of type json, the sink creates it as jsonb"),
                    "\(text)"
                )
            }
            await sink.close()
        }
    }
}

import PostgresNIO

/// The events table: a validated name and the SQL the sink runs against it.
///
/// The name is checked, never quoted: a lower-case identifier (`watcher_events`), optionally schema-qualified
/// (`audit.watcher_events`), so that it reads the same in `psql` without quotes and cannot inject SQL.
public struct PostgresTable: Sendable, Hashable, CustomStringConvertible {
    /// The schema, when qualified.
    public let schema: String?
    /// The table name.
    public let name: String

    /// The default table.
    public static let defaultName = "watcher_events"

    /// Validates `text`; `nil` when it is not a safe identifier.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), parts.allSatisfy(Self.isIdentifier) else { return nil }
        schema = parts.count == 2 ? parts[0] : nil
        name = parts[parts.count - 1]
    }

    /// `[a-z_][a-z0-9_]*`, at most 63 bytes (PostgreSQL's identifier limit).
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, text.utf8.count <= 63 else { return false }
        let lower = UInt8(ascii: "a")...UInt8(ascii: "z")
        let digit = UInt8(ascii: "0")...UInt8(ascii: "9")
        let underscore = UInt8(ascii: "_")
        guard lower.contains(first) || first == underscore else { return false }
        return text.utf8.allSatisfy { lower.contains($0) || digit.contains($0) || $0 == underscore }
    }

    /// The qualified name as written in SQL.
    public var description: String { schema.map { "\($0).\(name)" } ?? name }

    /// The columns the sink writes and `watcher sinks test` checks.
    public static let columns = schema.map(\.name)

    /// Each column with its type as `information_schema.columns.data_type` names it: what ``createTable`` creates,
    /// and what `watcher sinks test` checks an existing table against.
    public static let schema: [(name: String, type: String)] = [
        ("id", "text"), ("type", "text"), ("subject", "text"), ("source", "text"),
        ("time", "timestamp with time zone"), ("data", "jsonb"), ("inserted_at", "timestamp with time zone"),
    ]

    /// What is wrong with a table whose columns are `found` (name and `data_type`): missing columns, then columns
    /// of another type; empty when the sink can write to it.
    public static func problems(_ found: [(name: String, type: String)]) -> [String] {
        let types = Dictionary(found.map { ($0.name, $0.type) }) { first, _ in first }
        let missing = schema.filter { types[$0.name] == nil }.map(\.name)
        var problems: [String] = []
        if !missing.isEmpty { problems.append("lacks the columns \(missing.joined(separator: ", "))") }
        for column in schema {
            guard let type = types[column.name], type != column.type else { continue }
            problems.append("has column \(column.name) of type \(type), the sink creates it as \(column.type)")
        }
        return problems
    }

    /// Creates the table when it is missing.
    var createTable: PostgresQuery {
        PostgresQuery(
            unsafeSQL: """
                create table if not exists \(self) (
                    id text primary key,
                    type text not null,
                    subject text,
                    source text,
                    time timestamptz,
                    data jsonb,
                    inserted_at timestamptz not null default now()
                )
                """
        )
    }

    /// Creates the (type, time) index when it is missing.
    var createIndex: PostgresQuery {
        let index = String("\(name)_type_time_idx".prefix(63))
        return PostgresQuery(unsafeSQL: "create index if not exists \(index) on \(self) (type, time)")
    }

    /// The table's column names and types, in order, from the catalog.
    var columnsQuery: PostgresQuery {
        var binds = PostgresBindings()
        binds.append(name)
        binds.append(schema ?? "")
        return PostgresQuery(
            unsafeSQL: """
                select column_name::text, data_type::text from information_schema.columns
                where table_name = $1 and table_schema = coalesce(nullif($2, ''), current_schema())
                order by ordinal_position
                """,
            binds: binds
        )
    }

    /// Inserts `rows` in one statement (one implicit transaction): six array parameters whatever the batch size,
    /// unnested into rows; an id already stored is skipped, so a redelivery stores nothing twice. Empty strings
    /// stand for SQL nulls.
    func insert(_ rows: [PostgresRow]) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(rows.map(\.id))
        binds.append(rows.map(\.type))
        binds.append(rows.map { $0.subject ?? "" })
        binds.append(rows.map { $0.source ?? "" })
        binds.append(rows.map { $0.time ?? "" })
        binds.append(rows.map { $0.data ?? "" })
        return PostgresQuery(
            unsafeSQL: """
                insert into \(self) (id, type, subject, source, time, data)
                select id, type, nullif(subject, ''), nullif(source, ''),
                    nullif(time, '')::timestamptz, nullif(data, '')::jsonb
                from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
                    as u(id, type, subject, source, time, data)
                on conflict (id) do nothing
                """,
            binds: binds
        )
    }
}

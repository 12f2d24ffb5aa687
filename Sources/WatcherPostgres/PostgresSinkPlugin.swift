import WatcherCore
import WatcherJSON

/// The `postgres` sink: one row per event in a PostgreSQL table, inserted in batches, idempotent by event id.
public enum PostgresSinkPlugin: SinkPlugin {
    /// How the connection uses TLS.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, plain TCP otherwise.
        case prefer
        /// TLS with certificate and host name verification, or no connection.
        case require
    }

    /// Options of a `postgres` sink.
    public struct Options: PluginOptions, SecretBearing {
        /// `postgres://user:password@host:port/database`, the password resolved from `${ENV}`.
        public var url: String
        /// The table, optionally schema-qualified.
        public var table: String
        /// TLS use.
        public var tls: TLSMode
        /// The most events per insert statement (and per cursor commit).
        public var batchSize: Int
        /// Time to connect, and the server's `statement_timeout`.
        public var timeout: Duration
        /// Attempts before dead-lettering.
        public var maxAttempts: Int
        /// Age after which an undelivered event is dead-lettered.
        public var maxAge: Duration
        /// First retry delay; doubles per attempt with full jitter.
        public var initialBackoff: Duration
        /// Longest retry delay.
        public var maxBackoff: Duration

        /// Creates options in code (tests, embedding); the config reads them with ``init(from:)``.
        public init(
            url: String,
            table: String = PostgresTable.defaultName,
            tls: TLSMode = .prefer,
            batchSize: Int = 100,
            timeout: Duration = .seconds(10),
            maxAttempts: Int = 20,
            maxAge: Duration = .seconds(86_400),
            initialBackoff: Duration = .seconds(1),
            maxBackoff: Duration = .seconds(60)
        ) {
            self.url = url
            self.table = table
            self.tls = tls
            self.batchSize = batchSize
            self.timeout = timeout
            self.maxAttempts = maxAttempts
            self.maxAge = maxAge
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
        }

        public init(from reader: ObjectReader) {
            let doc = "postgres://user:${PG_PASSWORD}@host:5432/database; the password as a ${ENV_NAME} secret."
            url = reader.url("url", schemes: ["postgres", "postgresql"], required: true, doc: doc) ?? ""
            let written = reader.raw("url", type: "url", doc: doc)?.stringValue
            if let written {
                reader.show("url", .string(PostgresEndpoint.masked(written)))
                if PostgresEndpoint.hasLiteralPassword(written) {
                    reader.context.warning(
                        reader.path.key("url"),
                        "write the password as a ${ENV_NAME} reference, not in the config file"
                    )
                }
            }
            if !url.isEmpty {
                do {
                    _ = try PostgresEndpoint(parsing: url)
                } catch {
                    reader.context.error(
                        reader.path.key("url"),
                        error.description + URLSecretHint.suffix(forWritten: written ?? "")
                    )
                }
            }
            table =
                reader.string("table", default: PostgresTable.defaultName, doc: "The table (created when missing).")
            if PostgresTable(table) == nil {
                reader.context.error(
                    reader.path.key("table"),
                    "expected a lower-case identifier such as watcher_events or schema.watcher_events"
                )
            }
            let modes = TLSMode.allCases.map(\.rawValue)
            tls =
                reader.choice("tls", modes, default: "prefer", doc: "TLS: disable, prefer or require.")
                .flatMap(TLSMode.init(rawValue:)) ?? .prefer
            batchSize =
                reader.int("batchSize", default: 100, range: 1...10_000, doc: "Events per insert transaction.")
            timeout =
                reader.duration(
                    "timeout",
                    default: .seconds(10),
                    minimum: .milliseconds(100),
                    doc: "Time to connect, and the statement timeout."
                )
            (maxAttempts, maxAge, initialBackoff, maxBackoff) = DeliveryPolicy.readRetryOptions(
                reader,
                maxAttempts: 20,
                maxBackoff: .seconds(60)
            )
        }
    }

    public static let descriptor = PluginDescriptor.sink(
        type: "postgres",
        summary: "Inserts events into a PostgreSQL table in batches; one row per event id, retries, dead-letters.",
        capabilities: ["batch", "retry", "deadletters", "ordered", "idempotent"]
    )

    public static func make(id: String, options: Options, context: PluginContext) throws -> any Sink {
        try PostgresSink(id: id, options: options, logger: context.logger)
    }
}

import Logging
import NIOCore
import PostgresNIO
import WatcherCore

/// Stores events in a PostgreSQL table, one row per event id.
///
/// The ``DeliveryWorker`` hands it up to `batchSize` events at a time from the sink's persisted cursor; it writes
/// them in one `insert … on conflict (id) do nothing` statement (one transaction) and reports them delivered only
/// when that commits, so the cursor moves only past committed rows. A redelivery (after a crash between the insert
/// and the cursor commit, or from a second instance) stores nothing twice, because event ids derive from facts.
///
/// It holds one connection, opened on first use and after any failure; the first statement on each connection
/// creates the table and its index when missing. Failures are reported as retries of the whole batch, so the
/// worker's backoff and dead letters apply as for the webhook sink. An event whose body is not a JSON object, or
/// that the server refuses as data (SQLSTATE class 22, found by retrying the batch row by row), is dead-lettered.
public actor PostgresSink: ManagedSink, SinkSelfTest {
    public nonisolated let id: String
    nonisolated let options: PostgresSinkPlugin.Options
    nonisolated let endpoint: PostgresEndpoint
    nonisolated let table: PostgresTable
    let logger: Logger
    let eventLoopGroup: any EventLoopGroup
    private var connection: PostgresConnection?
    private var connections = 0

    /// Creates the sink; it connects on the first delivery.
    /// - Parameters:
    ///   - id: the config id.
    ///   - options: the URL, table, TLS mode, batch size and retry policy.
    ///   - logger: for connection events.
    ///   - eventLoopGroup: where connections run.
    public init(
        id: String,
        options: PostgresSinkPlugin.Options,
        logger: Logger,
        eventLoopGroup: any EventLoopGroup = PostgresConnection.defaultEventLoopGroup
    ) throws {
        self.id = id
        self.options = options
        do {
            self.endpoint = try PostgresEndpoint(parsing: options.url)
        } catch {
            throw PluginError(message: "sink \(id): url: \(error)")
        }
        guard let table = PostgresTable(options.table) else {
            throw PluginError(message: "sink \(id): table: not a lower-case identifier: \(options.table)")
        }
        self.table = table
        var logger = logger
        logger[metadataKey: "sink"] = "\(id)"
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
    }

    /// From the options: `maxAttempts`, `maxAge`, `initialBackoff`…`maxBackoff`, `batchSize`.
    public nonisolated var deliveryPolicy: DeliveryPolicy {
        DeliveryPolicy(
            maxAttempts: options.maxAttempts,
            maxAge: options.maxAge,
            backoff: Backoff(base: options.initialBackoff, cap: options.maxBackoff),
            batchSize: options.batchSize
        )
    }

    /// The server, database and table (no password): a persisted disable applies only while it is unchanged.
    public nonisolated var destination: String { "\(endpoint)#\(table)" }

    public func deliver(_ events: [SinkEvent]) async -> [DeliveryOutcome] {
        var outcomes: [DeliveryOutcome] = []
        var rows: [PostgresRow] = []
        var rejected: String?
        for event in events {
            guard let row = PostgresRow(event) else {
                rejected = "event \(event.id): the body is not a JSON object"
                break
            }
            rows.append(row)
        }
        do {
            if !rows.isEmpty { try await insert(rows) }
            outcomes = Array(repeating: .delivered, count: rows.count)
            if let rejected { outcomes.append(.reject(reason: rejected)) }
        } catch let failure as PostgresFailure where failure.isDataError && rows.count > 1 {
            logger.notice("batch refused as data; inserting row by row", metadata: ["error": "\(failure)"])
            outcomes = await deliverOneByOne(rows)
        } catch let failure as PostgresFailure where failure.isDataError {
            outcomes = [.reject(reason: failure.description)]
        } catch {
            outcomes = [.retry(after: nil, reason: "\(error)")]
        }
        let pending = DeliveryOutcome.retry(after: nil, reason: "an earlier event is pending")
        return outcomes + Array(repeating: pending, count: events.count - outcomes.count)
    }

    /// Inserts rows one statement each, up to the first failure (a data error dead-letters that row).
    private func deliverOneByOne(_ rows: [PostgresRow]) async -> [DeliveryOutcome] {
        var outcomes: [DeliveryOutcome] = []
        for row in rows {
            do {
                try await insert([row])
                outcomes.append(.delivered)
            } catch let failure as PostgresFailure where failure.isDataError {
                outcomes.append(.reject(reason: "event \(row.id): \(failure)"))
                break
            } catch {
                outcomes.append(.retry(after: nil, reason: "\(error)"))
                break
            }
        }
        return outcomes
    }

    /// Inserts `rows` in one statement; throws a ``PostgresFailure`` and drops the connection on any error.
    private func insert(_ rows: [PostgresRow]) async throws {
        let connection = try await ready()
        do {
            try await connection.query(table.insert(rows), logger: logger)
        } catch {
            throw await drop(connection, error)
        }
    }

    /// The open connection, or a new one with the table ensured.
    private func ready() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        connection = nil
        connections += 1
        let opened: PostgresConnection
        do {
            opened = try await PostgresConnection.connect(
                on: eventLoopGroup.any(),
                configuration: try configuration(),
                id: connections,
                logger: logger
            )
        } catch {
            throw PostgresFailure(error, endpoint: endpoint)
        }
        do {
            try await opened.query(table.createTable, logger: logger)
            try await opened.query(table.createIndex, logger: logger)
        } catch {
            throw await drop(opened, error)
        }
        logger.debug("connected", metadata: ["to": "\(endpoint)", "table": "\(table)"])
        connection = opened
        return opened
    }

    /// Closes `connection` after `error` (the next attempt reconnects) and describes the error.
    private func drop(_ connection: PostgresConnection, _ error: any Error) async -> PostgresFailure {
        if self.connection === connection { self.connection = nil }
        try? await connection.close()
        return PostgresFailure(error, endpoint: endpoint)
    }

    private func configuration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch options.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: endpoint.host,
            port: endpoint.port,
            username: endpoint.user,
            password: endpoint.password,
            database: endpoint.database,
            tls: tls
        )
        let milliseconds = options.timeout.milliseconds
        configuration.options.connectTimeout = .milliseconds(milliseconds)
        configuration.options.additionalStartupParameters = [
            ("statement_timeout", "\(milliseconds)"), ("application_name", "watcher"),
        ]
        return configuration
    }

    /// Connects, ensures the table, checks its columns and reports the server version.
    public func selfTest() async throws -> String {
        do {
            let connection = try await ready()
            var version = "?"
            let rows = try await connection.query("show server_version", logger: logger)
            for try await text in rows.decode(String.self) { version = text }
            var columns: [(name: String, type: String)] = []
            let catalog = try await connection.query(table.columnsQuery, logger: logger)
            for try await (name, type) in catalog.decode((String, String).self) {
                columns.append((name, type))
            }
            let problems = PostgresTable.problems(columns)
            guard problems.isEmpty else {
                throw PostgresFailure("table \(table) \(problems.joined(separator: "; "))")
            }
            return "connected to \(endpoint) (PostgreSQL \(version)); table \(table) is ready"
        } catch let failure as PostgresFailure {
            throw failure
        } catch {
            throw PostgresFailure(error, endpoint: endpoint)
        }
    }

    public func close() async {
        guard let connection else { return }
        self.connection = nil
        try? await connection.close()
    }
}

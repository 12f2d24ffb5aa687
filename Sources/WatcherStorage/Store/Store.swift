import Foundation
import Logging

/// The watcher's state in LMDB: typed tables over one ``Environment``, written through one ``StorageWriter``.
///
/// ```swift
/// let store = try Store(path: "./watcher-data")
/// try await store.write { txn in try txn.putAccount(account) }
/// let accounts = try store.read { try $0.accounts() }
/// ```
public final class Store: Sendable {
    /// The schema version this build writes. A store with a higher version is refused.
    public static let schemaVersion: UInt32 = 1

    /// The environment.
    public let environment: Environment
    let tables: Tables
    private let writer: StorageWriter?
    /// How the writes are going (`/healthz`, `watcher_store_errors_total`).
    public let health = StoreHealth()

    /// Opens or creates the store at `path`.
    /// - Parameters:
    ///   - path: the data directory.
    ///   - options: LMDB options; `readOnly` opens an existing store for inspection.
    ///   - logger: for open-time notices.
    /// - Throws: ``StorageError/newerSchema(path:found:supported:)``, ``StorageError/missingStore(path:)``,
    ///   ``LMDBError``.
    public init(path: String, options: EnvironmentOptions = .init(), logger: Logger? = nil) throws {
        let environment = try Environment(path: path, options: options, logger: logger)
        self.environment = environment
        self.tables = Tables(try environment.openDatabases(Tables.names, optional: Tables.optionalNames))
        try Self.checkSchema(environment, tables, path: path)
        self.writer = options.readOnly ? nil : StorageWriter(environment: environment)
    }

    private static func checkSchema(_ env: Environment, _ tables: Tables, path: String) throws {
        let found = try env.read { txn in
            try txn.get(tables.meta, Keys.schemaVersion).flatMap { UInt32(bigEndianBytes: $0) }
        }
        if let found {
            if found > schemaVersion {
                throw StorageError.newerSchema(path: path, found: found, supported: schemaVersion)
            }
        } else if !env.options.readOnly {
            try env.writeSync { txn in
                try txn.put(tables.meta, Keys.schemaVersion, schemaVersion.bigEndianBytes)
            }
        }
    }

    /// Reads in a short synchronous transaction on the caller's thread. The closure cannot `await`, so the
    /// transaction never outlives it; copy out what you need.
    public func read<T>(_ body: (StoreTransaction<ReadTransaction>) throws -> T) throws -> T {
        try environment.read { try body(StoreTransaction(txn: $0, tables: tables)) }
    }

    /// Writes in one transaction on the writer thread; everything in `body` commits together or not at all.
    /// An LMDB failure (a full disk, an I/O error) is recorded in ``health`` under `operation`, and a commit clears it.
    /// - Throws: ``StorageError/writerStopped`` for a read-only store, ``LMDBError``, or what `body` throws.
    public func write<T: Sendable>(
        _ operation: StoreOperation = .other,
        _ body: @escaping @Sendable (StoreTransaction<WriteTransaction>) throws -> T
    ) async throws -> T {
        guard let writer else { throw StorageError.writerStopped }
        let tables = self.tables
        do {
            let result = try await writer.write { try body(StoreTransaction(txn: $0, tables: tables)) }
            health.succeeded(operation)
            return result
        } catch let error as LMDBError {
            health.failed(operation, error)
            throw error
        }
    }

    /// Finishes queued writes, stops the writer thread and closes the environment.
    public func close() async {
        await writer?.shutdown()
        environment.close()
    }
}

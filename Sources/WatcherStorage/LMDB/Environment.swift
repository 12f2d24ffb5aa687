import CLMDB
import Foundation
import Logging
import Synchronization

/// An open LMDB environment: one data directory holding `data.mdb` and `lock.mdb`.
///
/// Open it once per process (LMDB forbids opening the same environment twice in one process) and share it.
/// Reads run on the caller's thread in short synchronous closures (the environment uses `MDB_NOTLS`).
/// Writes are serialised on one dedicated OS thread by ``StorageWriter``; the synchronous write entry point is
/// `package` so that nothing else can begin a write transaction on a cooperative-pool thread.
///
/// `@unchecked Sendable`: `MDB_env*` may be used from any thread to begin transactions; the map size is only
/// changed under the exclusive ``ReadWriteGate``, while no transaction of this process is active.
public final class Environment: @unchecked Sendable {
    /// The data directory.
    public let path: String
    /// The options it was opened with.
    public let options: EnvironmentOptions
    let handle: OpaquePointer
    /// Reader slots of dead processes that the open cleared.
    public let staleReadersClearedAtOpen: Int
    let gate = ReadWriteGate()
    private let closed = Atomic<Bool>(false)

    /// Opens (and, unless read-only, creates) the environment at `path`.
    ///
    /// The directory is created with mode 0700 and the data files with 0600. Stale reader slots left by crashed
    /// processes are cleared (`mdb_reader_check`).
    /// - Parameters:
    ///   - path: the data directory.
    ///   - options: map size, readers, durability.
    ///   - logger: where the reader check reports cleared slots.
    /// - Throws: ``LMDBError`` or ``StorageError``.
    public init(path: String, options: EnvironmentOptions = .init(), logger: Logger? = nil) throws {
        self.path = path
        self.options = options
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw StorageError.notADirectory(path: path)
        }
        if !options.readOnly {
            try FileManager.default.createDirectory(
                atPath: path,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } else if !FileManager.default.fileExists(atPath: path + "/data.mdb") {
            throw StorageError.missingStore(path: path)
        }
        let dataFile = path + "/data.mdb"
        let existing = Self.sizeOnceWritten(dataFile)
        if existing == 0 { throw StorageError.truncated(file: dataFile, size: 0, expected: 2 * 4096) }
        let fresh = existing == nil && !options.readOnly
        if !options.readOnly { try LockFile.reserve(directory: path, readers: options.maxReaders, fresh: fresh) }
        var env: OpaquePointer?
        try LMDBError.check(mdb_env_create(&env), "mdb_env_create")
        guard let env else { throw LMDBError(code: ENOMEM, operation: "mdb_env_create") }
        do {
            try LMDBError.check(mdb_env_set_maxdbs(env, options.maxDatabases), "mdb_env_set_maxdbs")
            try LMDBError.check(mdb_env_set_maxreaders(env, options.maxReaders), "mdb_env_set_maxreaders")
            try LMDBError.check(mdb_env_set_mapsize(env, options.mapSize), "mdb_env_set_mapsize")
            var flags = UInt32(MDB_NOTLS)
            if options.readOnly { flags |= UInt32(MDB_RDONLY) }
            if options.durability == .noMetaSync { flags |= UInt32(MDB_NOMETASYNC) }
            try LMDBError.check(mdb_env_open(env, path, flags, 0o600), "mdb_env_open(\(path))")
        } catch {
            mdb_env_close(env)
            if fresh, error.code == ENOSPC || error.code == EDQUOT {
                LockFile.removeFresh(directory: path)
                throw StorageError.noSpace(path: path)
            }
            throw error
        }
        self.handle = env
        // A file shorter than its meta pages say would fault (SIGBUS) on the first read of a missing page. The size
        // is read again after the open: a daemon writing the store meanwhile (its first commits) grew the file since
        // the first look, and a reader must not take that for truncation.
        let expected = Self.usage(env).usedBytes
        let current = (try? FileManager.default.attributesOfItem(atPath: dataFile)[.size] as? Int) ?? existing
        if existing != nil, let current, current < expected {
            mdb_env_close(env)
            throw StorageError.truncated(file: dataFile, size: current, expected: expected)
        }
        var dead: Int32 = 0
        mdb_reader_check(env, &dead)
        self.staleReadersClearedAtOpen = Int(dead)
        if dead > 0 {
            logger?.notice("cleared stale LMDB reader slots", metadata: ["count": "\(dead)", "path": "\(path)"])
        }
        try ensureHeadroom()
    }

    deinit { close() }

    /// The size of `file` (`nil` when it does not exist). An empty file is looked at again for up to
    /// ``emptyFileWait``: a daemon creating its store has `data.mdb` at 0 bytes until LMDB writes the meta pages a
    /// moment later, and a CLI opening the store right then (`watcher requests create` as the daemon starts) must not
    /// take it for truncated. A file still empty after that is (a crash while the store was created).
    static func sizeOnceWritten(_ file: String) -> Int? {
        func size() -> Int? { (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil }
        let deadline = ContinuousClock.now + emptyFileWait
        var current = size()
        while current == 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            current = size()
        }
        return current
    }

    /// How long an empty `data.mdb` is given to get its meta pages (``sizeOnceWritten(_:)``).
    static let emptyFileWait: Duration = .seconds(2)

    /// The raw `MDB_env*`, for benchmarks that compare the wrapper with direct C calls.
    package var rawHandle: OpaquePointer { handle }

    /// Throws instead of beginning a transaction on a closed environment, whose lock file and map are gone (a task
    /// still reading while the daemon stops would otherwise dereference freed memory in `mdb_txn_begin`). Called
    /// with the gate held shared, so ``close()`` (which takes it exclusively) cannot run between the check and the
    /// transaction.
    func checkOpen(_ operation: String) throws(LMDBError) {
        guard closed.load(ordering: .acquiring) else { return }
        throw LMDBError(code: EINVAL, operation: operation, hint: "the environment is closed")
    }

    /// Closes the environment. Transactions begun after it fail with an ``LMDBError``; later calls do nothing.
    public func close() {
        guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        gate.exclusive { mdb_env_close(handle) }
    }

    /// Clears reader slots held by processes that no longer exist.
    /// - Returns: how many slots were cleared.
    @discardableResult
    public func clearStaleReaders() -> Int {
        var dead: Int32 = 0
        mdb_reader_check(handle, &dead)
        return Int(dead)
    }

    /// The current map size and the bytes in use, from `mdb_env_info` and `mdb_env_stat`.
    public var usage: (mapSize: Int, usedBytes: Int) { Self.usage(handle) }

    private static func usage(_ handle: OpaquePointer) -> (mapSize: Int, usedBytes: Int) {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        mdb_env_info(handle, &info)
        mdb_env_stat(handle, &stat)
        return (info.me_mapsize, (info.me_last_pgno + 1) * Int(stat.ms_psize))
    }

    /// At open the map is at least twice the used size, so a nearly full store has room to grow.
    private func ensureHeadroom() throws {
        let (mapSize, used) = usage
        if !options.readOnly, mapSize < used * 2 {
            try setMapSize(min(max(used * 2, mapSize), max(options.maxMapSize, used * 2)))
        }
    }

    func setMapSize(_ size: Int) throws(LMDBError) {
        try gate.exclusive { () throws(LMDBError) in
            try LMDBError.check(mdb_env_set_mapsize(handle, size), "mdb_env_set_mapsize")
        }
    }

    /// Doubles the map after `MDB_MAP_FULL`, up to ``EnvironmentOptions/maxMapSize``.
    func growMap() throws(LMDBError) {
        let current = usage.mapSize
        guard current < options.maxMapSize else {
            throw LMDBError(
                code: MDB_MAP_FULL,
                operation: "write",
                hint: "the store at \(path) reached storage.maxMapSize (\(current) bytes); raise storage.maxMapSize"
            )
        }
        try setMapSize(min(current * 2, options.maxMapSize))
    }

    /// Adopts a map grown by another process (`MDB_MAP_RESIZED`).
    func adoptResizedMap() throws(LMDBError) {
        try setMapSize(0)
    }
}

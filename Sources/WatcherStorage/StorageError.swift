/// Errors of the store above the raw LMDB codes.
public enum StorageError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A read-only open found no store.
    case missingStore(path: String)
    /// The store was written by a newer `watcher` whose schema this build does not understand.
    case newerSchema(path: String, found: UInt32, supported: UInt32)
    /// A stored value could not be decoded.
    case corruptValue(table: String, key: String, detail: String)
    /// The writer was used after it shut down.
    case writerStopped
    /// `data.mdb` is shorter than its own meta pages say (a truncated copy, a full disk) or empty.
    case truncated(file: String, size: Int, expected: Int)
    /// The data directory path names something that is not a directory.
    case notADirectory(path: String)
    /// Another `watcher run` holds the data directory.
    case locked(path: String, holder: String?)
    /// The store's files cannot be created (a new store, or a missing `lock.mdb`): its filesystem has no space left.
    case noSpace(path: String)

    public var description: String {
        switch self {
        case .missingStore(let path):
            "no watcher store at \(path); run `watcher run` or `watcher accounts add` first to create it"
        case .newerSchema(let path, let found, let supported):
            "the store at \(path) has schema version \(found), but this watcher understands up to version "
                + "\(supported); upgrade watcher, or point storage.path at another directory"
        case .corruptValue(let table, let key, let detail):
            "stored value in \(table) at key \(key) could not be read: \(detail)"
        case .writerStopped:
            "the storage writer has stopped"
        case .truncated(let file, let size, let expected):
            "store is truncated or corrupt: \(file) has \(size) bytes, its meta pages need at least \(expected); "
                + "restore it from a backup, or move the directory aside to start a new store"
        case .notADirectory(let path):
            "storage.path \(path) is a file, not a directory; point it at a directory (it is created if missing)"
        case .noSpace(let path):
            "cannot open the store at \(path): no space left on its filesystem for the store's files; free some "
                + "space, or point storage.path at another filesystem"
        case .locked(let path, let holder):
            "another watcher is running on \(path)\(holder.map { " (pid \($0))" } ?? ""); two daemons on one "
                + "store would deliver every event twice. Stop it, or give this one its own storage.path"
        }
    }
}

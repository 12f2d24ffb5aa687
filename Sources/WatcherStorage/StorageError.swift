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
        }
    }
}

import WatcherCore
import WatcherStorage

/// Opens the store of a config for the CLI's read commands (read-only, from a separate process while
/// `watcher run` writes) and for `accounts add` (read-write).
enum StoreAccess {
    /// Opens read-only; fails at once with a clear message when no store exists yet.
    static func reader(_ config: WatcherConfig) throws -> Store {
        do {
            return try Store(path: config.storage.path, options: .init(readOnly: true))
        } catch let error as StorageError {
            throw CommandFailure.runtime(error.description)
        } catch {
            throw CommandFailure.runtime("cannot open the store at \(config.storage.path): \(error)")
        }
    }

    /// Opens read-write, creating the store if needed.
    static func writer(_ config: WatcherConfig) throws -> Store {
        do {
            return try Store(
                path: config.storage.path,
                options: .init(mapSize: config.storage.mapSize, maxMapSize: config.storage.maxMapSize)
            )
        } catch {
            throw CommandFailure.runtime("cannot open the store at \(config.storage.path): \(error)")
        }
    }
}

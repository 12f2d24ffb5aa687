import Logging
import WatcherConfiguration
import WatcherCore
import WatcherStorage

/// Opens the store of a config for the CLI: read-only for the read commands (a separate process while
/// `watcher run` writes), read-write for the daemon, `accounts add/remove` and `dead-letters replay`. Every
/// failure is a ``CommandFailure`` with exit code 1 naming the path.
enum StoreAccess {
    /// Opens read-only; fails at once with a clear message when no store exists yet.
    static func reader(_ config: WatcherConfig) throws -> Store {
        try open(config, options: EnvironmentOptions(readOnly: true), logger: nil)
    }

    /// Opens read-write with the config's map size and durability, creating the store if needed.
    static func writer(_ config: WatcherConfig, logger: Logger? = nil) throws -> Store {
        try open(config, options: config.storage.environmentOptions, logger: logger)
    }

    private static func open(_ config: WatcherConfig, options: EnvironmentOptions, logger: Logger?) throws -> Store {
        do {
            return try Store(path: config.storage.path, options: options, logger: logger)
        } catch let error as StorageError {
            throw CommandFailure.runtime(error.description)
        } catch {
            throw CommandFailure.runtime("cannot open the store at \(config.storage.path): \(error)")
        }
    }
}

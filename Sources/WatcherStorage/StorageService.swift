import AsyncAlgorithms
import Logging
import ServiceLifecycle

/// Keeps the store healthy while the daemon runs (clears stale reader slots every few minutes) and closes it,
/// after queued writes finish, at graceful shutdown. List it **first** in the service group so it stops last.
public struct StorageService: Service {
    /// The store.
    public let store: Store
    let logger: Logger
    let checkInterval: Duration

    /// Creates the service.
    public init(store: Store, logger: Logger, checkInterval: Duration = .seconds(300)) {
        self.store = store
        self.logger = logger
        self.checkInterval = checkInterval
    }

    public func run() async throws {
        let ticks = AsyncTimerSequence(interval: checkInterval, clock: .continuous).cancelOnGracefulShutdown()
        for await _ in ticks {
            let cleared = store.environment.clearStaleReaders()
            if cleared > 0 { logger.notice("cleared stale LMDB reader slots", metadata: ["count": "\(cleared)"]) }
        }
        await store.close()
        logger.debug("store closed", metadata: ["path": "\(store.environment.path)"])
    }
}

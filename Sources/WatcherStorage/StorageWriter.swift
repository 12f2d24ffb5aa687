import NIOPosix
import Synchronization

/// Serialises every write transaction onto one dedicated OS thread.
///
/// LMDB binds a write transaction (and, on Linux, its process-shared robust mutex) to the thread that began it,
/// while Swift tasks may resume on another thread after any `await`. So a write transaction begins, runs and
/// commits inside one synchronous closure on this writer's thread, and never spans an `await`. It also keeps
/// blocking `fsync`s off the cooperative thread pool.
public final class StorageWriter: Sendable {
    /// The environment written to.
    public let environment: Environment
    private let pool: NIOThreadPool
    private let stopped = Atomic<Bool>(false)

    /// Starts the writer thread.
    public init(environment: Environment) {
        self.environment = environment
        self.pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
    }

    /// Runs `body` in one write transaction on the writer thread and commits it.
    ///
    /// If `body` throws, nothing is written. If the map is full it grows and `body` runs again.
    /// - Returns: what `body` returned, after the commit.
    /// - Throws: ``LMDBError``, ``StorageError/writerStopped``, or what `body` throws.
    public func write<T: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> T) async throws -> T {
        guard !stopped.load(ordering: .acquiring) else { throw StorageError.writerStopped }
        let environment = self.environment
        do {
            return try await pool.runIfActive { try environment.writeSync(body) }
        } catch is NIOThreadPoolError.ThreadPoolInactive {
            throw StorageError.writerStopped
        }
    }

    /// Finishes queued writes and stops the thread.
    public func shutdown() async {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        try? await pool.shutdownGracefully()
    }
}

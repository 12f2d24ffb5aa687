#if canImport(Glibc)
    import Glibc
#endif

/// A clock that moves only when told to: the injected clock of state-machine tests and simulations.
public final class ManualClock: Clock, @unchecked Sendable {
    // `@unchecked Sendable`: `current` is only read and written under `lock`.
    public struct Instant: InstantProtocol, Sendable {
        /// Offset from the clock's origin.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = Mutex()
    private var current = Instant(offset: .zero)

    /// Creates a clock at offset zero.
    public init() {}

    public var now: Instant { lock.withLock { current } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves time forward.
    public func advance(by duration: Duration) { lock.withLock { current = current.advanced(by: duration) } }

    /// Sleeping on a manual clock returns at once after moving time to the deadline: simulations run as fast as
    /// they can while every timestamp stays consistent.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        lock.withLock { if deadline > current { current = deadline } }
    }
}

/// A minimal lock for tiny critical sections (Linux has no `os_unfair_lock`; `NSLock.lock()` is unavailable in async code).
public final class Mutex: @unchecked Sendable {
    // `@unchecked Sendable`: wraps a pthread mutex that is only used through `withLock`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// Creates an unlocked mutex.
    public init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

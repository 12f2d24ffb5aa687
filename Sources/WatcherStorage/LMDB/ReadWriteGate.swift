#if canImport(Glibc)
    import Glibc
#endif

/// A process-local reader/writer lock. Every transaction holds it shared; growing the map holds it exclusively,
/// because `mdb_env_set_mapsize` may only run while no transaction is active in this process.
///
/// `@unchecked Sendable`: the pthread rwlock is designed for use from any thread; the pointer never changes.
final class ReadWriteGate: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func shared<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func exclusive<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}

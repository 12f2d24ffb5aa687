import Synchronization

/// A value behind a lock, shared by reference between the rounds of one job: an agreeing job's ``AgreementCache``
/// and the mempool job's ``MempoolRecall`` (the rules decide on the value; this only serializes the access), the
/// display loop's ``DisplayFloor``.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` on the value, alone.
    func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in try body(&value) }
    }
}

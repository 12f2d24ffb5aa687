import Foundation
import Synchronization

/// What a write to the store was for: the label of `watcher_store_errors_total` and the name `/healthz` gives.
public enum StoreOperation: String, Sendable, CaseIterable {
    /// The engine's commit: state and events in one transaction (the event log's append).
    case commit
    /// A sink's cursor, retry state and dead letters.
    case delivery
    /// Trimming the event log.
    case trim
    /// Replaying dead letters (`watcher dead-letters replay`).
    case deadLetters = "dead_letters"
    /// Following and unfollowing accounts.
    case accounts
    /// Handing out a wallet's next address.
    case wallets
    /// Anything else.
    case other
}

/// How the store's writes are going: the operations whose last write failed in LMDB (a full disk, an I/O error),
/// with the error, since when and how many in a row, and a callback for each failure (the metric). An operation is
/// healthy again as soon as one of its writes commits.
public final class StoreHealth: Sendable {
    /// An operation whose writes fail.
    public struct Failure: Sendable, Equatable {
        /// The operation.
        public var operation: StoreOperation
        /// The last error, in words.
        public var error: String
        /// The first failure of this run of failures.
        public var since: Date
        /// Failures in a row.
        public var count: Int
    }

    private struct State {
        var failing: [StoreOperation: Failure] = [:]
        var observer: (@Sendable (StoreOperation) -> Void)?
    }

    private let state = Mutex(State())

    /// Creates a health record with nothing failing.
    public init() {}

    /// Calls `observer` with the operation of every failed write from now on.
    public func observe(_ observer: @escaping @Sendable (StoreOperation) -> Void) {
        state.withLock { $0.observer = observer }
    }

    /// The operations whose last write failed, in the order of ``StoreOperation``.
    public var failures: [Failure] {
        let failing = state.withLock { $0.failing }
        return StoreOperation.allCases.compactMap { failing[$0] }
    }

    func succeeded(_ operation: StoreOperation) {
        state.withLock { _ = $0.failing.removeValue(forKey: operation) }
    }

    func failed(_ operation: StoreOperation, _ error: any Error, at now: Date = Date()) {
        let observer = state.withLock { state -> (@Sendable (StoreOperation) -> Void)? in
            var failure = state.failing[operation] ?? Failure(operation: operation, error: "", since: now, count: 0)
            failure.error = "\(error)"
            failure.count += 1
            state.failing[operation] = failure
            return state.observer
        }
        observer?(operation)
    }
}

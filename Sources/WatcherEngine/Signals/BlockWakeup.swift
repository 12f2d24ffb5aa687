import Foundation
import Synchronization

/// Tells the polling jobs of a chain that it has a new tip, so that a round checks at once what the block could
/// have changed instead of waiting out its interval. A waiter passes the generation it last saw; a notification
/// between its read and its wait is never lost. It also counts the reorgs committed, so a job that was not
/// running when one happened still learns of it (``PushedRounds``).
final class BlockWakeup: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var reorgs = Reorgs()
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    /// The reorgs committed so far.
    struct Reorgs: Sendable, Equatable {
        /// How many.
        var count: UInt64 = 0
        /// The highest height whose block any of them replaced.
        var highestReplaced: Int?
    }

    private let state = Mutex(State())

    /// How many new tips were announced so far.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// The reorgs committed so far.
    var reorgs: Reorgs { state.withLock { $0.reorgs } }

    /// Announces a new tip: every waiter returns.
    /// - Parameter replaced: the highest height whose block the new tip's chain replaced, for a reorg.
    func notify(replaced: Int? = nil) {
        let waiters = state.withLock { state in
            state.generation &+= 1
            if let replaced {
                state.reorgs.count &+= 1
                state.reorgs.highestReplaced = max(state.reorgs.highestReplaced ?? replaced, replaced)
            }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the generation differs from `seen`, or when the task is cancelled.
    func wait(since seen: UInt64) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.generation != seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

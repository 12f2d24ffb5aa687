import Foundation
import Synchronization

/// Tells the polling jobs of a chain that it has a new tip, so that a round checks at once what the block could
/// have changed instead of waiting out its interval. A waiter passes the generation it last saw; a notification
/// between its read and its wait is never lost.
final class BlockWakeup: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// How many new tips were announced so far.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Announces a new tip: every waiter returns.
    func notify() {
        let waiters = state.withLock { state in
            state.generation &+= 1
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

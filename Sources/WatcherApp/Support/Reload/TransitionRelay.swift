import Synchronization
import WatcherCore
import WatcherScheduler

/// Carries the scheduler's provider state changes to the engine that runs now. A reload may replace the engine and
/// keep the scheduler (or the other way round); an `AsyncStream` has one consumer, so each engine gets a stream of its
/// own (``stream()``) and the relay forwards to the newest.
final class TransitionRelay: Sendable {
    private let current = Mutex<AsyncStream<ProviderTransition>.Continuation?>(nil)

    init() {}

    /// A new stream for a new engine; the previous engine's stream ends.
    func stream() -> AsyncStream<ProviderTransition> {
        let (stream, continuation) = AsyncStream<ProviderTransition>.makeStream()
        let previous = current.withLock { current in
            let previous = current
            current = continuation
            return previous
        }
        previous?.finish()
        return stream
    }

    /// Forwards a change to the current engine.
    func yield(_ transition: ProviderTransition) {
        _ = current.withLock { $0?.yield(transition) }
    }
}

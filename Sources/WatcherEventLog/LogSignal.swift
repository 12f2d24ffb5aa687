import Synchronization

/// Wakes the delivery workers when the engine has appended events: every subscriber gets its own stream, and
/// notifications coalesce (a worker that is busy sees one pending wake-up, however many appends happened).
public final class LogSignal: Sendable {
    private let subscribers = Mutex<[AsyncStream<Void>.Continuation]>([])

    /// Creates a signal.
    public init() {}

    /// A new stream of wake-ups for one consumer.
    public func subscribe() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        subscribers.withLock { $0.append(continuation) }
        return stream
    }

    /// Wakes every subscriber.
    public func notify() {
        for continuation in subscribers.withLock({ $0 }) { continuation.yield() }
    }

    /// Ends every stream (shutdown).
    public func finish() {
        for continuation in subscribers.withLock({ $0 }) { continuation.finish() }
    }
}

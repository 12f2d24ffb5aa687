import NIOCore
import Synchronization

/// What one `/api/events/stream` client has yet to be sent: chunks the broadcaster encoded once and shares with every
/// client, bounded in bytes. A client that falls further behind than the bound is dropped (its queue closes), not
/// buffered without end; it reconnects with `Last-Event-ID` and catches up from the durable log.
final class StreamQueue: Sendable {
    /// The most bytes held for the client before it is dropped.
    let limit: Int

    private struct State {
        var chunks: [ByteBuffer] = []
        var bytes = 0
        var closed = false
        var dropped = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Creates an empty queue holding at most `limit` bytes.
    init(limit: Int) { self.limit = limit }

    /// Queues `chunk`; `false` (and the queue closed as dropped) when that would pass the limit, or when closed.
    @discardableResult
    func push(_ chunk: ByteBuffer) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !state.closed else { return (false, nil) }
            if state.bytes + chunk.readableBytes > limit {
                state.closed = true
                state.dropped = true
                state.chunks = []
                state.bytes = 0
            } else {
                state.chunks.append(chunk)
                state.bytes += chunk.readableBytes
            }
            let waiter = state.waiter
            state.waiter = nil
            return (!state.dropped, waiter)
        }
        waiter?.resume()
        return accepted
    }

    /// Closes the queue: ``next()`` returns what is left, then `nil`.
    func close() {
        let waiter = state.withLock { state in
            state.closed = true
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Whether it was closed for passing its limit.
    var dropped: Bool { state.withLock(\.dropped) }

    /// Everything queued so far, waiting while nothing is; `nil` once closed and drained (or dropped, or cancelled).
    func next() async -> [ByteBuffer]? {
        while true {
            let taken = state.withLock { state -> [ByteBuffer]?? in
                if !state.chunks.isEmpty {
                    let chunks = state.chunks
                    state.chunks = []
                    state.bytes = 0
                    return .some(chunks)
                }
                return state.closed ? .some(nil) : .none
            }
            if let taken { return taken }
            if Task.isCancelled { return nil }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state in
                        if !state.chunks.isEmpty || state.closed { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                close()
            }
        }
    }
}

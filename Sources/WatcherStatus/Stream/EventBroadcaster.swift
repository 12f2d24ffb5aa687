import Foundation
import NIOCore
import Synchronization
import WatcherCore
import WatcherJSON

/// The one reader of the event log behind every `/api/events/stream` client. It reads the log while at least one
/// client is connected, encodes each event once (`id: <seq>` and `data: <entry>`) and hands the same bytes to every
/// client's ``StreamQueue``; a client whose queue passes its byte limit is dropped. At most ``Limits/clients``
/// clients are served at once (``subscribe(after:)`` answers `nil` beyond that).
///
/// A client that resumes from an older `Last-Event-ID` first catches up from the log on its own task
/// (``catchUp(_:)``), then joins the shared stream at the point it has reached, so nothing is skipped or repeated.
final class EventBroadcaster: Sendable {
    /// The bounds of the stream.
    struct Limits: Sendable {
        /// Concurrent clients; the next one gets 503.
        var clients = 64
        /// Bytes held for one client before it is dropped.
        var bufferBytes = 1 << 20
        /// How often the log is read for new entries.
        var poll: Duration = .milliseconds(500)
        /// A comment line this often keeps proxies from closing an idle stream (and finds clients that left).
        var keepAlive: Duration = .seconds(15)
    }

    /// A connected client.
    struct Subscription: Sendable {
        let id: UInt64
        let queue: StreamQueue
    }

    private struct Client {
        var queue: StreamQueue
        /// The newest sequence number queued or written for it.
        var lastSent: UInt64
        /// Still reading the log on its own: the reader does not queue for it yet.
        var catchingUp: Bool
    }

    private struct State {
        var clients: [UInt64: Client] = [:]
        var nextID: UInt64 = 0
        /// The newest sequence number the reader has handed out.
        var published: UInt64 = 0
        var reading = false
    }

    let data: StatusData
    let limits: Limits
    private let state = Mutex(State())

    init(data: StatusData, limits: Limits = .init()) {
        self.data = data
        self.limits = limits
    }

    /// The number of clients connected now.
    var clientCount: Int { state.withLock { $0.clients.count } }

    /// Registers a client that has seen every event up to `start`; `nil` when ``Limits/clients`` are connected.
    func subscribe(after start: UInt64) -> Subscription? {
        let newest = (try? data.lastSeq()) ?? start
        let (subscription, startReader) = state.withLock { state -> (Subscription?, Bool) in
            guard state.clients.count < limits.clients else { return (nil, false) }
            var startReader = false
            if !state.reading {
                state.reading = true
                state.published = newest
                startReader = true
            }
            let id = state.nextID
            state.nextID += 1
            let queue = StreamQueue(limit: limits.bufferBytes)
            state.clients[id] = Client(queue: queue, lastSent: start, catchingUp: start < state.published)
            return (Subscription(id: id, queue: queue), startReader)
        }
        if startReader { Task { await self.read() } }
        return subscription
    }

    /// Removes a client (it left, or was dropped); the reader stops with the last one.
    func unsubscribe(_ subscription: Subscription) {
        _ = state.withLock { $0.clients.removeValue(forKey: subscription.id) }
        subscription.queue.close()
    }

    /// The next part of the log a catching-up client needs, encoded; `nil` once it has joined the shared stream
    /// (everything after that comes through its queue).
    func catchUp(_ subscription: Subscription) throws -> ByteBuffer? {
        guard let after = state.withLock({ $0.clients[subscription.id].flatMap { $0.catchingUp ? $0.lastSent : nil } })
        else { return nil }
        let batch = try data.events(after: after, limit: 200)
        return state.withLock { state -> ByteBuffer? in
            guard var client = state.clients[subscription.id] else { return nil }
            if let last = batch.last?.seq { client.lastSent = last }
            if batch.isEmpty || client.lastSent >= state.published { client.catchingUp = false }
            state.clients[subscription.id] = client
            return batch.isEmpty ? nil : Self.encode(batch)
        }
    }

    /// `id: <seq>` and `data: <entry>` of each event: the bytes every client is sent. The entry is the object of
    /// `/api/events` (`{"seq":…,"type":…,"event":<envelope>}`), written around the stored envelope, which is
    /// compact JSON already, instead of parsing and serializing it again.
    static func encode(_ events: some Sequence<LoggedEvent>) -> ByteBuffer {
        var buffer = ByteBuffer()
        for event in events {
            buffer.writeString("id: \(event.seq)\ndata: {\"seq\":\(event.seq),\"type\":")
            buffer.writeString(JSONValue.string(event.type).serialized())
            buffer.writeString(",\"event\":")
            buffer.writeBytes(event.body)
            buffer.writeString("}\n\n")
        }
        return buffer
    }

    /// Reads the log while clients are connected and fans each batch out.
    private func read() async {
        let clock = ContinuousClock()
        var lastWrite = clock.now
        while true {
            guard
                let after = state.withLock({ state -> UInt64? in
                    if state.clients.isEmpty {
                        state.reading = false
                        return nil
                    }
                    return state.published
                })
            else { return }
            let batch = (try? data.events(after: after, limit: 200)) ?? []
            if batch.isEmpty {
                if clock.now - lastWrite >= limits.keepAlive {
                    publish(ByteBuffer(string: ": keep-alive\n\n"))
                    lastWrite = clock.now
                }
                try? await clock.sleep(for: limits.poll)
                continue
            }
            let whole = Self.encode(batch)
            let first = batch[0].seq
            let last = batch[batch.count - 1].seq
            state.withLock { state in
                var dropped: [UInt64] = []
                for (id, var client) in state.clients where !client.catchingUp && client.lastSent < last {
                    let chunk = client.lastSent < first ? whole : Self.encode(batch.filter { $0.seq > client.lastSent })
                    if !client.queue.push(chunk) { dropped.append(id) }
                    client.lastSent = last
                    state.clients[id] = client
                }
                for id in dropped { state.clients[id] = nil }
                state.published = last
            }
            lastWrite = clock.now
        }
    }

    /// Queues `chunk` for every client that has joined the shared stream.
    private func publish(_ chunk: ByteBuffer) {
        state.withLock { state in
            for (id, client) in state.clients where !client.catchingUp {
                if !client.queue.push(chunk) { state.clients[id] = nil }
            }
        }
    }
}

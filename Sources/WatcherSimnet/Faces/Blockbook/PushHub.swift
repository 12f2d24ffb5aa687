import Foundation
import NIOCore
import Synchronization
import WatcherCore
import WatcherJSON

/// The simnet's websocket state: every open connection with its subscriptions and message count, the ban, and
/// the fan-out of new blocks and mempool transactions to subscribers. Pure bookkeeping behind one lock; each
/// connection's ``PushSession`` does the I/O.
final class PushHub: Sendable {
    struct Connection {
        var blockID: String?
        var addressID: String?
        var addresses: Set<String> = []
        var windowStart: Double
        var messages = 0
        var outbox: AsyncStream<String>.Continuation
        /// Set when the server closes the connection for a reason of its own.
        var closeReason: String?
        /// The socket, for a hard drop.
        var channel: (any Channel)?
    }

    /// What to do with a client message.
    enum Answer: Equatable {
        case reply(String)
        case none
        /// Close the connection with this reason.
        case close(String)
    }

    struct State {
        var limits: WebSocketLimits
        var connections: [UInt64: Connection] = [:]
        var nextID: UInt64 = 0
        var bannedUntil: Double?
        var stats = WebSocketStats()
    }

    let clock: TimeSource
    let state: Mutex<State>

    /// Whether `/websocket` is served at all (``SimnetConfiguration/websocket``).
    let offered: Bool

    init(limits: WebSocketLimits, clock: TimeSource, offered: Bool = true) {
        self.clock = clock
        self.offered = offered
        state = Mutex(State(limits: limits))
    }

    /// Whether new connections are refused (and counts the refusal).
    func refuses() -> Bool {
        let now = clock.unixSeconds
        return state.withLock { state in
            guard let until = state.bannedUntil, now < until else { return false }
            state.stats.refusedWhileBanned += 1
            return true
        }
    }

    /// Registers a connection; its pushes and replies arrive on the stream.
    func open(channel: (any Channel)? = nil) -> (id: UInt64, outbox: AsyncStream<String>) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(500))
        let now = clock.unixSeconds
        let id = state.withLock { state in
            state.nextID += 1
            state.connections[state.nextID] = Connection(windowStart: now, outbox: continuation, channel: channel)
            state.stats.connections += 1
            state.stats.open += 1
            return state.nextID
        }
        return (id, stream)
    }

    func close(_ id: UInt64) {
        let connection = state.withLock { state in
            let removed = state.connections.removeValue(forKey: id)
            if removed != nil { state.stats.open -= 1 }
            return removed
        }
        connection?.outbox.finish()
    }

    /// Ends the connection's outbox for `reason`: its writer sends what is queued, then the close frame.
    func finishOutbox(_ id: UInt64, reason: String) {
        state.withLock { state in
            state.connections[id]?.closeReason = reason
            return state.connections[id]?.outbox
        }?.finish()
    }

    /// Why the server closes the connection, if it does (a policy violation; `nil`: dropped or shut down).
    func closeReason(_ id: UInt64) -> String? {
        state.withLock { $0.connections[id]?.closeReason }
    }

    /// Drops every open connection without a close handshake, as a server restart or a proxy dropping idle
    /// sockets does.
    func dropAll() {
        let connections = state.withLock { Array($0.connections.values) }
        for connection in connections {
            connection.channel?.close(promise: nil)
            connection.outbox.finish()
        }
    }

    /// Queues an answer behind the pushes already queued.
    func reply(_ id: UInt64, _ frame: String) {
        state.withLock { $0.connections[id]?.outbox }?.yield(frame)
    }

    func setLimits(_ limits: WebSocketLimits) {
        state.withLock {
            $0.limits = limits
            $0.bannedUntil = nil
        }
    }

    var stats: WebSocketStats {
        let now = clock.unixSeconds
        return state.withLock { state in
            var stats = state.stats
            stats.banned = state.bannedUntil.map { now < $0 } ?? false
            return stats
        }
    }

    /// The addresses some open connection is subscribed to now.
    var subscribedAddresses: Set<String> {
        state.withLock { state in state.connections.values.reduce(into: Set<String>()) { $0.formUnion($1.addresses) } }
    }

    /// Counts one client message against the limit; `false` (and a ban) when it is over.
    func count(_ id: UInt64) -> Bool {
        let now = clock.unixSeconds
        return state.withLock { state in
            guard var connection = state.connections[id] else { return false }
            state.stats.received += 1
            if now - connection.windowStart >= Double(state.limits.window.components.seconds) {
                connection.windowStart = now
                connection.messages = 0
            }
            connection.messages += 1
            state.connections[id] = connection
            guard connection.messages <= state.limits.messages else {
                state.bannedUntil = now + Double(state.limits.ban.components.seconds)
                state.stats.closedForLimit += 1
                return false
            }
            return true
        }
    }

    /// Records a subscription; returns the error to answer, if any.
    func subscribe(_ id: UInt64, blocks requestID: String) {
        state.withLock { $0.connections[id]?.blockID = requestID }
    }

    func subscribe(_ id: UInt64, addresses: [String], requestID: String) -> String? {
        state.withLock { state in
            guard addresses.count <= state.limits.maxAddresses else {
                return "Too many addresses: \(addresses.count), the limit is \(state.limits.maxAddresses)"
            }
            state.connections[id]?.addressID = requestID
            state.connections[id]?.addresses = Set(addresses)
            return nil
        }
    }

    func unsubscribe(_ id: UInt64, blocks: Bool) {
        state.withLock { state in
            if blocks { state.connections[id]?.blockID = nil } else { state.connections[id]?.addressID = nil }
        }
    }

    /// Pushes new blocks to their subscribers.
    func publish(blocks: [(height: Int, hash: String)]) {
        let frames = state.withLock { state -> [(AsyncStream<String>.Continuation, String)] in
            var frames: [(AsyncStream<String>.Continuation, String)] = []
            for connection in state.connections.values {
                guard let id = connection.blockID else { continue }
                for block in blocks {
                    let data = JSONValue.object([
                        .init("height", .integer(block.height)), .init("hash", .string(block.hash)),
                    ])
                    frames.append((connection.outbox, Self.frame(id: id, data: data)))
                }
            }
            state.stats.pushes += frames.count
            return frames
        }
        for (outbox, frame) in frames { outbox.yield(frame) }
    }

    /// Pushes each transaction to the subscribers of the addresses it touches, once per address.
    func publish(transactions: [(touched: Set<String>, json: JSONValue)]) {
        let frames = state.withLock { state -> [(AsyncStream<String>.Continuation, String)] in
            var frames: [(AsyncStream<String>.Continuation, String)] = []
            for connection in state.connections.values {
                guard let id = connection.addressID else { continue }
                for tx in transactions {
                    for address in tx.touched.intersection(connection.addresses).sorted() {
                        let data = JSONValue.object([.init("address", .string(address)), .init("tx", tx.json)])
                        frames.append((connection.outbox, Self.frame(id: id, data: data)))
                    }
                }
            }
            state.stats.pushes += frames.count
            return frames
        }
        for (outbox, frame) in frames { outbox.yield(frame) }
    }

    static func frame(id: String, data: JSONValue) -> String {
        String(decoding: JSONValue.object([.init("id", .string(id)), .init("data", data)]).bytes, as: UTF8.self)
    }
}

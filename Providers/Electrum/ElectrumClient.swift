import NIOCore
import NIOPosix
import Synchronization
import WatcherJSON

/// One long-lived Electrum connection: newline-delimited JSON-RPC 2.0 with increasing integer ids. Replies are
/// matched by `id` (they may come out of order), notifications (a `method`, no `id`) go to `onNotification` by
/// method, and a server→client request (both) drops the connection, as Electrum does.
public final class ElectrumClient: Sendable {
    /// Why a call failed.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The server answered with an error: its code (`nil` for a bare string error) and message.
        case server(code: Int?, message: String)
        /// The connection is gone (or never came up), with why.
        case closed(String)
        /// No reply within the timeout.
        case timeout(Duration)
        /// A line that is not a JSON-RPC reply or notification.
        case malformed(String)

        public var description: String {
            switch self {
            case .server(let code, let message): code.map { "error \($0): \(message)" } ?? "error: \(message)"
            case .closed(let reason): "connection closed: \(reason)"
            case .timeout(let after): "no reply within \(after)"
            case .malformed(let detail): "malformed line: \(detail)"
            }
        }
    }

    private struct State: Sendable {
        var nextID = 0
        var pending: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var closedReason: String?
    }

    private let channel: any Channel
    private let state = Mutex(State())
    private let onNotification: @Sendable (String, [JSONValue]) -> Void
    private let onClose: @Sendable (String) -> Void

    private init(
        channel: any Channel,
        onNotification: @escaping @Sendable (String, [JSONValue]) -> Void,
        onClose: @escaping @Sendable (String) -> Void
    ) {
        self.channel = channel
        self.onNotification = onNotification
        self.onClose = onClose
    }

    /// Connects over TCP, or over TLS checked as `tls` says.
    /// - Parameters:
    ///   - maxLineLength: the longest line accepted from the server; longer drops the connection.
    ///   - onNotification: called with each notification's method and params, in arrival order.
    ///   - onClose: called once when the connection ends, with why.
    /// - Throws: ``Failure/closed(_:)`` when the connection cannot be made.
    public static func connect(
        host: String,
        port: Int,
        tls: ElectrumTLS? = nil,
        connectTimeout: Duration = .seconds(10),
        maxLineLength: Int = 8 << 20,
        keepAlive: Duration? = nil,
        onNotification: @escaping @Sendable (String, [JSONValue]) -> Void = { _, _ in },
        onClose: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(Failure) -> ElectrumClient {
        let box = Mutex<ElectrumClient?>(nil)
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.milliseconds(Self.milliseconds(connectTimeout)))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(tls.handler(host: host)) }
                    let client = ElectrumClient(channel: channel, onNotification: onNotification, onClose: onClose)
                    box.withLock { $0 = client }
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(ElectrumLineReader(maxLength: maxLineLength))
                    )
                    try channel.pipeline.syncOperations.addHandler(ElectrumClientHandler(client: client))
                }
            }
        do {
            _ = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            throw .closed("cannot connect to \(host):\(port): \(error)")
        }
        guard let client = box.withLock({ $0 }) else { throw .closed("cannot connect to \(host):\(port)") }
        if let keepAlive {
            let every = TimeAmount.milliseconds(Self.milliseconds(keepAlive))
            let task = client.channel.eventLoop.scheduleRepeatedTask(initialDelay: every, delay: every) { _ in
                client.send(rawLine: #"{"jsonrpc":"2.0","method":"server.ping","id":0,"params":[]}"#)
            }
            client.channel.closeFuture.whenComplete { _ in task.cancel() }
        }
        return client
    }

    /// Sends one request and waits for its reply's `result`.
    /// - Throws: ``Failure``: the server's error, a closed connection, or no reply within `timeout`.
    public func call(_ method: String, _ params: [JSONValue] = [], timeout: Duration = .seconds(30))
        async throws(Failure) -> JSONValue
    {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let id: Int? = state.withLock { state in
                    guard state.closedReason == nil else { return nil }
                    state.nextID += 1
                    state.pending[state.nextID] = continuation
                    return state.nextID
                }
                guard let id else {
                    continuation.resume(throwing: Failure.closed(state.withLock { $0.closedReason } ?? "closed"))
                    return
                }
                let request = JSONValue.object([
                    .init("jsonrpc", .string("2.0")), .init("method", .string(method)),
                    .init("id", .number(String(id))), .init("params", .array(params)),
                ])
                var buffer = channel.allocator.buffer(capacity: 128)
                buffer.writeString(request.serialized())
                buffer.writeInteger(UInt8(ascii: "\n"))
                channel.writeAndFlush(buffer, promise: nil)
                let milliseconds =
                    timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
                channel.eventLoop.scheduleTask(in: .milliseconds(milliseconds)) { [self] in
                    resolve(id, .failure(Failure.timeout(timeout)))
                }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .closed("\(error)")
        }
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    /// Writes `line` and a newline as they are, for tests of how servers take what real clients send.
    func send(rawLine line: String) {
        var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        channel.writeAndFlush(buffer, promise: nil)
    }

    /// Closes the connection; pending calls fail.
    public func close() {
        closed(reason: "closed by the client")
        channel.close(promise: nil)
    }

    /// Whether the connection is gone.
    public var isClosed: Bool { state.withLock { $0.closedReason != nil } }

    private func resolve(_ id: Int, _ outcome: Result<JSONValue, any Error>) {
        let continuation = state.withLock { $0.pending.removeValue(forKey: id) }
        continuation?.resume(with: outcome)
    }

    /// One line from the server.
    func received(_ line: [UInt8]) {
        switch ElectrumMessage.decode(line) {
        case .invalid(let reason): drop(reason)
        case .notification(let method, let params): onNotification(method, params)
        case .reply(let id, let outcome): resolve(id, outcome.mapError { $0 as any Error })
        }
    }

    private func drop(_ reason: String) {
        closed(reason: reason)
        channel.close(promise: nil)
    }

    /// The connection ended: every pending call fails, `onClose` hears why (once).
    func closed(reason: String) {
        let pending = state.withLock { state -> [CheckedContinuation<JSONValue, any Error>]? in
            guard state.closedReason == nil else { return nil }
            state.closedReason = reason
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        guard let pending else { return }
        for continuation in pending { continuation.resume(throwing: Failure.closed(reason)) }
        onClose(reason)
    }
}

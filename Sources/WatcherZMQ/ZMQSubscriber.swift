import Foundation
import Synchronization

/// A ZMQ SUB socket on a thread of its own, bridged to an `AsyncStream`.
///
/// `zmq_msg_recv` blocks and a socket is not thread-safe, so the socket lives and dies on one dedicated thread
/// (never a concurrency-pool thread). It receives with a timeout so it notices ``stop()``, reports silences, and
/// after `reconnectAfter` without a message tears the socket down and connects again: a publisher that restarted
/// (a node restart) may otherwise leave a TCP connection that carries nothing.
public final class ZMQSubscriber: Sendable {
    /// What the stream yields.
    public enum Event: Sendable, Equatable {
        /// The socket connected (first time or again): anything published meanwhile was lost.
        case connected
        /// A message.
        case message(ZMQMessage)
        /// A malformed message, dropped.
        case malformed(String)
        /// Nothing arrived within the receive timeout.
        case silence
        /// libzmq failed; the subscriber retries after the receive timeout.
        case failed(String)
    }

    /// The publisher's endpoint, e.g. `tcp://127.0.0.1:28332`.
    public let endpoint: String
    /// Topics subscribed (`hashblock`, `sequence`).
    public let topics: [String]
    private let receiveTimeout: Duration
    private let reconnectAfter: Duration
    private let stopped = Atomic<Bool>(false)

    /// The largest frame kept: a `sequence` body is 41 bytes and a hash 32; raw blocks are not subscribed.
    static let maxFrameSize = 4_096

    /// Creates a subscriber; nothing connects before ``events()``.
    public init(
        endpoint: String,
        topics: [String] = ["hashblock", "sequence"],
        receiveTimeout: Duration = .seconds(1),
        reconnectAfter: Duration = .seconds(1_800)
    ) {
        self.endpoint = endpoint
        self.topics = topics
        self.receiveTimeout = receiveTimeout
        self.reconnectAfter = reconnectAfter
    }

    /// Starts the thread and returns its events; the stream finishes after ``stop()`` or when it is dropped.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1_024))
        continuation.onTermination = { [self] _ in stop() }
        let thread = Thread { [self] in
            run(continuation)
            continuation.finish()
        }
        thread.name = "zmq-sub"
        thread.start()
        return stream
    }

    /// Why libzmq cannot make a SUB socket here (`nil`: it can), for `watcher check` to refuse a ZMQ option
    /// rather than ignore it.
    public static var unavailableReason: String? {
        do {
            let socket = try ZMQSocket(.subscriber)
            socket.close()
            return nil
        } catch {
            return error.description
        }
    }

    /// Stops the thread (within one receive timeout).
    public func stop() { stopped.store(true, ordering: .relaxed) }

    private func run(_ continuation: AsyncStream<Event>.Continuation) {
        let timeout = Int32(
            clamping: receiveTimeout.components.seconds * 1_000
                + receiveTimeout.components.attoseconds / 1_000_000_000_000_000
        )
        while !stopped.load(ordering: .relaxed) {
            do {
                let socket = try ZMQSocket(.subscriber)
                defer { socket.close() }
                try socket.setReceiveTimeout(milliseconds: max(1, timeout))
                for topic in topics { try socket.subscribe(Array(topic.utf8)) }
                try socket.connect(endpoint)
                continuation.yield(.connected)
                var quiet = Duration.zero
                while !stopped.load(ordering: .relaxed), quiet < reconnectAfter {
                    guard let frames = try socket.receive(maxFrameSize: Self.maxFrameSize) else {
                        quiet += receiveTimeout
                        continuation.yield(.silence)
                        continue
                    }
                    quiet = .zero
                    do {
                        continuation.yield(.message(try ZMQMessage(frames: frames)))
                    } catch {
                        continuation.yield(.malformed(error.description))
                    }
                }
            } catch {
                continuation.yield(.failed(error.description))
                Thread.sleep(forTimeInterval: Double(max(1, timeout)) / 1_000)
            }
        }
    }
}

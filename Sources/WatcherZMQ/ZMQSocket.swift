import CZMQ

/// A libzmq failure: the call and libzmq's own message.
public struct ZMQError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The libzmq call that failed.
    public var call: String
    /// `errno` as libzmq set it.
    public var code: Int32
    /// libzmq's text for it.
    public var message: String

    public var description: String { "\(call) failed: \(message) (errno \(code))" }

    static func last(_ call: String) -> ZMQError {
        let code = zmq_errno()
        return ZMQError(call: call, code: code, message: String(cString: zmq_strerror(code)))
    }
}

/// One ZMQ context and socket: every libzmq call of the project goes through this type.
///
/// A ZMQ socket is not thread-safe: an instance is used by one thread at a time (``ZMQSubscriber`` keeps its own on
/// a dedicated thread; ``ZMQPublisher`` guards its with a lock).
final class ZMQSocket {
    enum Kind {
        case subscriber
        case publisher

        var type: Int32 { self == .subscriber ? ZMQ_SUB : ZMQ_PUB }
    }

    private let context: UnsafeMutableRawPointer
    private let socket: UnsafeMutableRawPointer
    private var closed = false

    init(_ kind: Kind) throws(ZMQError) {
        guard let context = zmq_ctx_new() else { throw .last("zmq_ctx_new") }
        guard let socket = zmq_socket(context, kind.type) else {
            let error = ZMQError.last("zmq_socket")
            zmq_ctx_term(context)
            throw error
        }
        self.context = context
        self.socket = socket
        // Closing never waits for unsent messages: a subscriber sends none, and the simnet's publisher drops them
        // as a real node does when nobody listens.
        try setOption(ZMQ_LINGER, Int32(0), "ZMQ_LINGER")
    }

    deinit { close() }

    /// Connects to a publisher, e.g. `tcp://127.0.0.1:28332`. ZMQ connects in the background and reconnects by
    /// itself; messages published before it is connected are lost (hence the forced poll after a connect).
    func connect(_ endpoint: String) throws(ZMQError) {
        guard zmq_connect(socket, endpoint) == 0 else { throw .last("zmq_connect(\(endpoint))") }
    }

    /// Binds, e.g. `tcp://127.0.0.1:*` for a free port.
    /// - Returns: the endpoint bound, with the port chosen.
    func bind(_ endpoint: String) throws(ZMQError) -> String {
        guard zmq_bind(socket, endpoint) == 0 else { throw .last("zmq_bind(\(endpoint))") }
        var buffer = [CChar](repeating: 0, count: 256)
        var size = buffer.count
        guard zmq_getsockopt(socket, ZMQ_LAST_ENDPOINT, &buffer, &size) == 0 else {
            throw .last("zmq_getsockopt(ZMQ_LAST_ENDPOINT)")
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Receives messages whose topic starts with `prefix` (a SUB socket receives nothing before this).
    func subscribe(_ prefix: [UInt8]) throws(ZMQError) {
        let rc = prefix.withUnsafeBytes { zmq_setsockopt(socket, ZMQ_SUBSCRIBE, $0.baseAddress, $0.count) }
        guard rc == 0 else { throw .last("zmq_setsockopt(ZMQ_SUBSCRIBE)") }
    }

    /// How long ``receive()`` waits before it returns `nil`.
    func setReceiveTimeout(milliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_RCVTIMEO, milliseconds, "ZMQ_RCVTIMEO")
    }

    /// The next multipart message (all its frames), or `nil` when the receive timeout passed first.
    /// - Parameter maxFrameSize: frames beyond this are cut, so a hostile or confused publisher cannot make it
    ///   hold a block's worth of memory per message.
    func receive(maxFrameSize: Int) throws(ZMQError) -> [[UInt8]]? {
        var frames: [[UInt8]] = []
        while true {
            var message = zmq_msg_t()
            zmq_msg_init(&message)
            defer { zmq_msg_close(&message) }
            guard zmq_msg_recv(&message, socket, 0) >= 0 else {
                if zmq_errno() == EAGAIN, frames.isEmpty { return nil }
                if zmq_errno() == EINTR { continue }
                throw .last("zmq_msg_recv")
            }
            let size = min(zmq_msg_size(&message), maxFrameSize)
            let data = zmq_msg_data(&message)
            frames.append(size == 0 || data == nil ? [] : Array(UnsafeRawBufferPointer(start: data, count: size)))
            guard zmq_msg_more(&message) != 0 else { return frames }
        }
    }

    /// Sends one multipart message.
    func send(_ frames: [[UInt8]]) throws(ZMQError) {
        for (index, frame) in frames.enumerated() {
            let flags = index == frames.count - 1 ? Int32(0) : Int32(ZMQ_SNDMORE)
            let rc = frame.withUnsafeBytes { zmq_send(socket, $0.baseAddress, $0.count, flags) }
            guard rc >= 0 else { throw .last("zmq_send") }
        }
    }

    /// Closes the socket and terminates the context (idempotent).
    func close() {
        guard !closed else { return }
        closed = true
        zmq_close(socket)
        zmq_ctx_term(context)
    }

    private func setOption(_ option: Int32, _ value: Int32, _ name: String) throws(ZMQError) {
        var value = value
        guard zmq_setsockopt(socket, option, &value, MemoryLayout<Int32>.size) == 0 else {
            throw .last("zmq_setsockopt(\(name))")
        }
    }
}

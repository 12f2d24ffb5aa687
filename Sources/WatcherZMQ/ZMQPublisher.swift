import Synchronization

/// A ZMQ PUB socket that numbers its messages per topic as Bitcoin Core does: the simnet's ZMQ face.
public final class ZMQPublisher: Sendable {
    private struct State: ~Copyable {
        var socket: ZMQSocket?
        var sequences: [String: UInt32] = [:]
    }

    private let state: Mutex<State>
    /// The endpoint bound, with its port (e.g. `tcp://127.0.0.1:40123`).
    public let endpoint: String

    /// Binds `endpoint` (`tcp://127.0.0.1:*` picks a free port).
    public init(bind endpoint: String) throws(ZMQError) {
        let socket = try ZMQSocket(.publisher)
        self.endpoint = try socket.bind(endpoint)
        self.state = Mutex(State(socket: socket))
    }

    /// Publishes `body` on `topic` with the topic's next counter; a message nobody is subscribed to is dropped,
    /// as a node drops it.
    /// - Returns: the counter sent.
    @discardableResult
    public func publish(topic: String, body: [UInt8]) throws(ZMQError) -> UInt32 {
        try state.withLock { (state: inout State) throws(ZMQError) -> UInt32 in
            let sequence = state.sequences[topic, default: 0]
            state.sequences[topic] = sequence &+ 1
            try state.socket?.send(ZMQMessage(topic: topic, body: body, sequence: sequence).frames)
            return sequence
        }
    }

    /// Skips `count` counters of `topic`, as if those messages were lost on the way (for loss-handling tests).
    public func skip(topic: String, count: UInt32) {
        state.withLock { $0.sequences[topic, default: 0] &+= count }
    }

    /// Closes the socket; later publishes are dropped.
    public func close() {
        state.withLock { state in
            state.socket?.close()
            state.socket = nil
        }
    }
}

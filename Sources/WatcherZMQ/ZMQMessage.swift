/// One message as Bitcoin Core publishes it: three frames, `topic | body | sequence`, the sequence a 4-byte
/// little-endian counter per topic.
public struct ZMQMessage: Sendable, Hashable {
    /// The topic, e.g. `hashblock` or `sequence`.
    public var topic: String
    /// The body (a hash, a serialized block or transaction, or a `sequence` record).
    public var body: [UInt8]
    /// The publisher's counter for this topic.
    public var sequence: UInt32

    /// Creates a message.
    public init(topic: String, body: [UInt8], sequence: UInt32) {
        self.topic = topic
        self.body = body
        self.sequence = sequence
    }

    /// A message that is not three frames with a 4-byte counter.
    public struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong.
        public var reason: String
        public var description: String { "malformed ZMQ message: \(reason)" }
    }

    /// Reads the frames of one multipart message.
    public init(frames: [[UInt8]]) throws(Malformed) {
        guard frames.count == 3 else { throw Malformed(reason: "\(frames.count) frames, expected 3") }
        guard frames[2].count == 4 else { throw Malformed(reason: "a \(frames[2].count)-byte sequence, expected 4") }
        self.topic = String(decoding: frames[0], as: UTF8.self)
        self.body = frames[1]
        self.sequence = frames[2].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The three frames, as ``init(frames:)`` reads them.
    public var frames: [[UInt8]] {
        [Array(topic.utf8), body, [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: sequence >> $0) }]
    }
}

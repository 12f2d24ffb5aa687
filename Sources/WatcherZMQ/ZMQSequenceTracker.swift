/// Loss detection for ZMQ hints, as pure rules: a PUB socket drops what it sent before a subscriber connected and
/// while it was away, and the per-topic counter is how a subscriber notices.
///
/// ``observe(_:)`` says whether the message continues what was seen; when it does not (the first message after a
/// (re)connect, or a gap in the counter), the watcher must reconcile in full rather than trust it saw everything.
public struct ZMQSequenceTracker: Sendable, Hashable {
    private var last: [String: UInt32] = [:]

    /// A tracker that has seen nothing (so the first message of each topic asks for a full reconciliation).
    public init() {}

    /// Whether `message` follows the last one of its topic without a gap. Counters wrap at 2³².
    public mutating func observe(_ message: ZMQMessage) -> Bool {
        defer { last[message.topic] = message.sequence }
        guard let previous = last[message.topic] else { return false }
        return message.sequence == previous &+ 1
    }

    /// Forgets the counters: after a reconnect nothing is known to be continuous.
    public mutating func reset() { last = [:] }
}

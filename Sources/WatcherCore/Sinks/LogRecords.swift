import Foundation

/// An event as the log keeps it: its id (each id is logged once), its type and its JSON envelope.
public protocol LoggableEvent: Sendable {
    /// The event id, derived from the fact it reports.
    var id: String { get }
    /// The type, e.g. `address.tx.confirmed`.
    var type: String { get }
    /// The JSON envelope the sinks deliver.
    var body: [UInt8] { get }
}

/// One entry of the durable event log: position (strictly increasing, never reused), id, type and envelope, the
/// event exactly as a sink receives it.
public typealias LoggedEvent = SinkEvent

/// An event a sink gave up on, kept for `watcher deadletters` to show and replay.
public struct DeadLetter: Sendable, Hashable, Codable {
    /// The sink id.
    public var sink: String
    /// The event's log position.
    public var seq: UInt64
    /// The event id.
    public var eventID: String
    /// The serialized envelope (kept even after the log is trimmed).
    public var body: [UInt8]
    /// Delivery attempts made.
    public var attempts: Int
    /// The last failure, for humans.
    public var lastError: String
    /// When it was dead-lettered.
    public var deadAt: Date

    /// Creates a dead letter.
    public init(
        sink: String,
        seq: UInt64,
        eventID: String,
        body: [UInt8],
        attempts: Int,
        lastError: String,
        deadAt: Date
    ) {
        self.sink = sink
        self.seq = seq
        self.eventID = eventID
        self.body = body
        self.attempts = attempts
        self.lastError = lastError
        self.deadAt = deadAt
    }
}

/// A sink disabled by its destination (HTTP 410 Gone), persisted so that a restart does not call it again.
public struct SinkDisabledRecord: Sendable, Hashable, Codable {
    /// The sink id.
    public var sink: String
    /// Why it was disabled, for humans.
    public var reason: String
    /// The destination it was disabled for (e.g. the webhook URL); a changed destination re-enables the sink.
    public var destination: String
    /// When it was disabled.
    public var disabledAt: Date

    /// Creates a record.
    public init(sink: String, reason: String, destination: String, disabledAt: Date) {
        self.sink = sink
        self.reason = reason
        self.destination = destination
        self.disabledAt = disabledAt
    }
}

/// The failed event a sink is retrying, persisted with each failed attempt so that a restart continues the count
/// (`maxAttempts` holds across restarts, as `maxAge` does through the append marks).
public struct SinkRetryRecord: Sendable, Hashable, Codable {
    /// The sink id.
    public var sink: String
    /// The event's log position.
    public var seq: UInt64
    /// Attempts made so far.
    public var attempts: Int
    /// Where the event's age counts from.
    public var since: Date
    /// The last failure.
    public var lastError: String

    /// Creates a record.
    public init(sink: String, seq: UInt64, attempts: Int, since: Date, lastError: String) {
        self.sink = sink
        self.seq = seq
        self.attempts = attempts
        self.since = since
        self.lastError = lastError
    }
}

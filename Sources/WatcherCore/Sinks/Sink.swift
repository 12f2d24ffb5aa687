/// The outcome of delivering one event.
public enum DeliveryOutcome: Sendable, Equatable {
    /// Delivered; the cursor may move past it.
    case delivered
    /// Failed; retry after the delay (or the sink's backoff when `nil`).
    case retry(after: Duration?, reason: String)
    /// Will never succeed (e.g. 410 Gone, or a 4xx that retrying cannot fix): dead-letter it.
    case reject(reason: String)
}

/// An event as a sink receives it: its log position, id, type and serialized envelope.
public struct SinkEvent: Sendable, Hashable {
    /// Position in the durable log.
    public var seq: UInt64
    /// The event id (stable across retries and restarts).
    public var id: String
    /// The event type, e.g. `address.tx.confirmed`.
    public var type: String
    /// The CloudEvents JSON envelope.
    public var body: [UInt8]

    /// Creates an event.
    public init(seq: UInt64, id: String, type: String, body: [UInt8]) {
        self.seq = seq
        self.id = id
        self.type = type
        self.body = body
    }
}

/// A destination for events: stdout, a file, a webhook, or your own.
///
/// A delivery worker feeds each sink from its own persisted cursor, in log order, and moves the cursor only past
/// delivered (or dead-lettered) events.
///
/// ## Example
/// ```swift
/// let outcomes = try await sink.deliver(events)   // one outcome per event, same order
/// ```
public protocol Sink: Sendable {
    /// The config id.
    var id: String { get }
    /// Delivers events in order. Returns one outcome per event; after the first non-delivered outcome the rest
    /// are not attempted and are reported as `.retry`.
    func deliver(_ events: [SinkEvent]) async -> [DeliveryOutcome]
    /// Flushes and releases resources at shutdown.
    func close() async
}

extension Sink {
    public func close() async {}
}

/// What a ``ManagedSink`` reports for one ``ManagedSink/deliverReporting(_:)`` call.
public struct DeliveryReport: Sendable, Equatable {
    /// One outcome per event, as ``Sink/deliver(_:)`` returns them.
    public var outcomes: [DeliveryOutcome]
    /// Set when the destination said it is gone for good (HTTP 410): the worker dead-letters the event that got
    /// this answer, persists the sink as disabled and stops delivering to it.
    public var disable: String?

    /// Creates a report.
    public init(outcomes: [DeliveryOutcome], disable: String? = nil) {
        self.outcomes = outcomes
        self.disable = disable
    }
}

/// Optional hooks by which a sink works more closely with its ``DeliveryWorker``. Every member has a default, so a
/// sink adopts only what it needs; sinks that do not adopt the protocol get the defaults.
public protocol ManagedSink: Sink {
    /// The retry and dead-letter policy (default: ``DeliveryPolicy/local``).
    var deliveryPolicy: DeliveryPolicy { get }
    /// A fingerprint of the destination, such as the URL. A persisted disable applies only while it is unchanged.
    var destination: String { get }
    /// Delivers like ``Sink/deliver(_:)`` and may ask for the sink to be disabled.
    func deliverReporting(_ events: [SinkEvent]) async -> DeliveryReport
    /// Called when the worker has nothing to deliver: after it drained the log, and on every poll while idle.
    /// The file sink uses it to honour its fsync interval.
    func idle() async
}

extension ManagedSink {
    public var deliveryPolicy: DeliveryPolicy { .local }
    public var destination: String { id }
    public func deliverReporting(_ events: [SinkEvent]) async -> DeliveryReport {
        DeliveryReport(outcomes: await deliver(events))
    }
    public func idle() async {}
}

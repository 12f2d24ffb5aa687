/// How a delivery worker retries one sink's events and when it gives up on one.
///
/// A failed attempt is retried after the sink's requested delay (`Retry-After`) or a full-jitter exponential
/// ``Backoff``. An event goes to the dead-letter table when an attempt fails and either it was attempt number
/// ``maxAttempts`` or the event is older than ``maxAge`` (measured from its append to the log).
public struct DeliveryPolicy: Sendable, Equatable {
    /// Attempts before an event is dead-lettered; `nil` retries for ever.
    public var maxAttempts: Int?
    /// Age after which a failing event is dead-lettered; `nil` means no age limit.
    public var maxAge: Duration?
    /// Delays between attempts when the sink does not ask for one.
    public var backoff: Backoff
    /// The most events handed to the sink in one call (and covered by one cursor commit).
    public var batchSize: Int

    /// Creates a policy.
    public init(maxAttempts: Int?, maxAge: Duration?, backoff: Backoff, batchSize: Int) {
        self.maxAttempts = maxAttempts.map { max(1, $0) }
        self.maxAge = maxAge
        self.backoff = backoff
        self.batchSize = max(1, batchSize)
    }

    /// For local sinks (stdout, file): never dead-letter, retry from 100 ms up to 30 s, 512 events per batch.
    public static let local = DeliveryPolicy(
        maxAttempts: nil,
        maxAge: nil,
        backoff: Backoff(base: .milliseconds(100), cap: .seconds(30)),
        batchSize: 512
    )
}

extension DeliveryPolicy {
    /// The retry options of a sink that dead-letters (webhook, postgres), read in one order and with one wording so
    /// that every such sink checks and documents them alike: `maxAttempts` (1...1000), `maxAge` (a day),
    /// `initialBackoff` (1 s, at least 1 ms) and `maxBackoff`.
    package static func readRetryOptions(_ reader: ObjectReader, maxAttempts: Int, maxBackoff: Duration)
        -> (maxAttempts: Int, maxAge: Duration, initialBackoff: Duration, maxBackoff: Duration)
    {
        let attempts =
            reader.int("maxAttempts", default: maxAttempts, range: 1...1000, doc: "Attempts before dead-lettering.")
        let maxAge =
            reader.duration("maxAge", default: .seconds(86_400), doc: "Dead-letter events older than this.")
        let initialBackoff =
            reader.duration(
                "initialBackoff",
                default: .seconds(1),
                minimum: .milliseconds(1),
                doc: "First retry delay."
            )
        let cap = reader.duration("maxBackoff", default: maxBackoff, doc: "Longest retry delay.")
        return (attempts, maxAge, initialBackoff, cap)
    }
}

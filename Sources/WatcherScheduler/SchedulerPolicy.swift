import WatcherCore

/// Retry, breaker and fairness settings shared by every provider lane.
public struct SchedulerPolicy: Sendable, Equatable {
    /// Attempts per job for 5xx, timeouts and invalid responses (across providers).
    public var maxAttempts: Int
    /// Backoff between those attempts, and after a 429 without `Retry-After`.
    public var backoff: Backoff
    /// Consecutive failures that open a provider's breaker.
    public var breakerThreshold: Int
    /// How long a breaker stays open before a probe.
    public var breakerCoolDown: Duration
    /// How long a request may wait before it goes ahead of more urgent ones.
    public var agingLimit: Duration

    /// Creates a policy.
    public init(
        maxAttempts: Int = 4,
        backoff: Backoff = Backoff(base: .milliseconds(500), cap: .seconds(60)),
        breakerThreshold: Int = 5,
        breakerCoolDown: Duration = .seconds(30),
        agingLimit: Duration = .seconds(30)
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.backoff = backoff
        self.breakerThreshold = breakerThreshold
        self.breakerCoolDown = breakerCoolDown
        self.agingLimit = agingLimit
    }
}

/// A provider's health changed: reported once per change, as a log line and a `provider.*` event.
public struct ProviderTransition: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable {
        /// The breaker opened, or the provider reported it is out of sync.
        case degraded
        /// It answers well again.
        case recovered
    }

    /// The provider id.
    public var provider: String
    /// Degraded or recovered.
    public var kind: Kind
    /// Why, for humans.
    public var reason: String
}

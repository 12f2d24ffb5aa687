/// Capped exponential backoff with full jitter: attempt `n` waits a uniform random time in
/// `[0, min(cap, base × 2ⁿ)]` (the "full jitter" of the AWS architecture blog), so retries of many clients spread out.
public struct Backoff: Sendable, Equatable {
    /// The first ceiling.
    public var base: Duration
    /// The largest ceiling.
    public var cap: Duration

    /// Creates a policy.
    public init(base: Duration = .seconds(1), cap: Duration = .seconds(60)) {
        self.base = base
        self.cap = cap
    }

    /// The ceiling for attempt `attempt` (0-based): `min(cap, base × 2^attempt)`.
    public func ceiling(attempt: Int) -> Duration {
        var ceiling = base
        for _ in 0..<min(max(attempt, 0), 40) {
            ceiling = ceiling * 2
            if ceiling >= cap { return cap }
        }
        return min(ceiling, cap)
    }

    /// A jittered delay for attempt `attempt`.
    public func delay(attempt: Int, using random: inout some RandomNumberGenerator) -> Duration {
        let ceiling = ceiling(attempt: attempt)
        let nanos = ceiling.nanoseconds
        guard nanos > 0 else { return .zero }
        return .nanoseconds(Int64.random(in: 0...nanos, using: &random))
    }
}

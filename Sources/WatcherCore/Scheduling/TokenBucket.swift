/// A token bucket as a pure state machine (GCRA form): `requests` per `per`, bursts of up to `burst`, and
/// pauses for `Retry-After`. Time is passed in, so tests drive it with a manual clock. Arithmetic is exact
/// (`Duration`), so "20 per minute, burst 20" grants exactly 20 at once and then one every 3 s.
public struct TokenBucket<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// What a caller may do now.
    public enum Decision: Sendable, Equatable {
        /// Go ahead; one token was taken.
        case granted
        /// Nothing was taken; ask again at this instant.
        case wait(until: Instant)
    }

    /// The limit.
    public let limit: RateLimit
    /// Time between tokens.
    public let interval: Duration
    /// The theoretical arrival time of the next request.
    private var tat: Instant?
    /// No grants before this instant (Retry-After).
    public private(set) var pausedUntil: Instant?

    /// Creates a full bucket.
    public init(limit: RateLimit) {
        self.limit = limit
        self.interval = limit.requests > 0 ? limit.per / limit.requests : .zero
    }

    /// Takes a token if one is available at `now`.
    public mutating func acquire(now: Instant) -> Decision {
        let ready = earliest(now: now)
        guard ready <= now else { return .wait(until: ready) }
        guard limit.requests > 0 else { return .granted }
        let base = max(tat ?? now, now)
        tat = base.advanced(by: interval)
        return .granted
    }

    /// The first instant at which ``acquire(now:)`` would grant.
    public func earliest(now: Instant) -> Instant {
        var ready = now
        if let pausedUntil, pausedUntil > ready { ready = pausedUntil }
        if limit.requests > 0, let tat {
            // Allowed while tat - now <= (burst - 1) * interval.
            let allowedAt = tat.advanced(by: .zero - interval * (limit.burst - 1))
            if allowedAt > ready { ready = allowedAt }
        }
        return ready
    }

    /// Refuses grants until `until` (a provider answered 429 with `Retry-After`) and drains the bucket, so the
    /// provider sees a trickle, not a burst, when the pause ends.
    public mutating func pause(until: Instant) {
        if pausedUntil.map({ until > $0 }) ?? true { pausedUntil = until }
        let drained = until.advanced(by: interval)
        if tat.map({ drained > $0 }) ?? true { tat = drained }
    }

    /// Tokens available at `now` (for metrics and the budget plan).
    public func available(now: Instant) -> Int {
        guard limit.requests > 0 else { return Int.max }
        if let pausedUntil, pausedUntil > now { return 0 }
        guard let tat, tat > now else { return limit.burst }
        let owed = now.duration(to: tat)
        let used = Int((owed / interval).rounded(.up))
        return max(0, limit.burst - used)
    }
}

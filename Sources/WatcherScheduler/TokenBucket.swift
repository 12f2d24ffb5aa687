import WatcherCore

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
    /// Time between tokens at the configured rate.
    public let baseInterval: Duration
    /// Time between tokens now: the configured interval, stretched by ``slowdown`` after 429s.
    public private(set) var interval: Duration
    /// How much slower than configured the bucket runs (1 = as configured), learned from 429s (AIMD).
    public private(set) var slowdown: Double = 1
    /// The rate one ``speedUp()`` wins back, as a fraction of the configured rate: a twentieth of the rate the
    /// last ``slowDown(by:toAtLeast:)`` left, so probing upwards takes small steps at any learned rate.
    public private(set) var probeStep: Double = 0.05
    /// The most the bucket slows down.
    public static var maximumSlowdown: Double { 64 }
    /// The theoretical arrival time of the next request.
    private var tat: Instant?
    /// No grants before this instant (Retry-After).
    public private(set) var pausedUntil: Instant?

    /// Creates a full bucket.
    public init(limit: RateLimit) {
        self.limit = limit
        self.baseInterval = limit.requests > 0 ? limit.per / limit.requests : .zero
        self.interval = baseInterval
    }

    /// The rate the bucket grants at now, in requests per hour (`.infinity` when unlimited).
    public var currentRequestsPerHour: Double {
        interval > .zero ? 3600 / interval.seconds : .infinity
    }

    /// Multiplicative decrease: the server refused a request the bucket allowed, so its real limit is lower. The
    /// interval grows by `factor`, and at least to `floor` when the refusals show the server's interval (see
    /// ``ProviderLane``), so a server far stricter than configured is learned in one step, not in many pauses.
    public mutating func slowDown(by factor: Double = 1.5, toAtLeast floor: Duration? = nil) {
        var target = slowdown * factor
        if let floor, baseInterval > .zero { target = max(target, floor / baseInterval) }
        setSlowdown(min(Self.maximumSlowdown, target))
        probeStep = 1 / slowdown / 20
    }

    /// Additive increase: ``probeStep`` of the configured rate back, up to the configured rate.
    public mutating func speedUp() {
        setSlowdown(max(1, 1 / (1 / slowdown + probeStep)))
    }

    private mutating func setSlowdown(_ value: Double) {
        slowdown = value
        interval = baseInterval * value
    }

    /// Takes `cost` tokens (the HTTP requests one operation makes) if they are available at `now`.
    public mutating func acquire(now: Instant, cost: Int = 1) -> Decision {
        let cost = max(1, min(cost, limit.burst))
        let ready = earliest(now: now, reserve: cost - 1)
        guard ready <= now else { return .wait(until: ready) }
        guard limit.requests > 0 else { return .granted }
        let base = max(tat ?? now, now)
        tat = base.advanced(by: interval * cost)
        return .granted
    }

    /// The first instant at which ``acquire(now:)`` would grant while leaving `reserve` tokens in the bucket.
    public func earliest(now: Instant, reserve: Int = 0) -> Instant {
        var ready = now
        if let pausedUntil, pausedUntil > ready { ready = pausedUntil }
        if limit.requests > 0, let tat {
            // Allowed while tat - now <= (burst - 1 - reserve) * interval.
            let allowedAt = tat.advanced(by: .zero - interval * (limit.burst - 1 - min(reserve, limit.burst - 1)))
            if allowedAt > ready { ready = allowedAt }
        }
        return ready
    }

    /// Refuses grants until `until` (a provider answered 429 with `Retry-After`) and empties the bucket, so the
    /// provider sees one request when the pause ends and then one per interval, never a burst.
    public mutating func pause(until: Instant) {
        if pausedUntil.map({ until > $0 }) ?? true { pausedUntil = until }
        let drained = until.advanced(by: interval * max(0, limit.burst - 1))
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

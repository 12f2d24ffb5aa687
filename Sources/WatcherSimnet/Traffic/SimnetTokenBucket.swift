import WatcherCore

/// A token bucket: `burst` tokens, refilled at `requests` per `per`. A pure state machine that is
/// handed the time; it never reads a clock.
public struct SimnetTokenBucket: Sendable, Hashable {
    /// The limit being enforced.
    public let limit: RateLimit
    private var tokens: Double
    private var updatedAt: Double

    /// A full bucket for `limit`, as of `now` (unix seconds).
    public init(limit: RateLimit, now: Double) {
        self.limit = limit
        self.tokens = Double(max(1, limit.burst))
        self.updatedAt = now
    }

    private var refillPerSecond: Double {
        Double(limit.requests) / max(limit.per.seconds, 0.001)
    }

    /// Takes one token at `now`.
    /// - Returns: `nil` if the request may go, otherwise the whole seconds (at least 1) until a token is back,
    ///   the value of a `Retry-After` header.
    public mutating func take(now: Double) -> Int? {
        let capacity = Double(max(1, limit.burst))
        if now > updatedAt {
            tokens = min(capacity, tokens + (now - updatedAt) * refillPerSecond)
            updatedAt = now
        }
        if tokens >= 1 - 1e-9 {
            tokens -= 1
            return nil
        }
        let wait = (1 - tokens) / refillPerSecond
        return max(1, Int(wait.rounded(.up)))
    }
}

import WatcherCore

/// A per-provider circuit breaker as a pure state machine. After `threshold` consecutive failures it opens; after
/// `coolDown` it lets one probe through (half-open); the probe's success closes it, its failure re-opens it.
/// Transitions are reported once each, so logs and events say "degraded" and "recovered", not every failure.
public struct CircuitBreaker<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// The breaker's state.
    public enum State: Sendable, Equatable {
        /// Requests flow; `failures` consecutive failures so far.
        case closed(failures: Int)
        /// Requests are refused until the instant.
        case open(until: Instant)
        /// One probe may go; `probing` while it is in flight.
        case halfOpen(probing: Bool)
    }

    /// A change worth one log line and one event.
    public enum Transition: Sendable, Equatable {
        /// The provider stopped answering well.
        case degraded(failures: Int)
        /// A probe succeeded after an outage.
        case recovered
    }

    /// Consecutive failures that open the breaker.
    public let threshold: Int
    /// How long it stays open before a probe.
    public let coolDown: Duration
    /// The current state.
    public private(set) var state: State = .closed(failures: 0)

    /// Creates a closed breaker.
    public init(threshold: Int = 5, coolDown: Duration = .seconds(30)) {
        self.threshold = max(1, threshold)
        self.coolDown = coolDown
    }

    /// Whether a request may start at `now`; moves open → half-open when the cool-down is over, and marks the
    /// probe in flight.
    public mutating func allowRequest(now: Instant) -> Bool {
        switch state {
        case .closed:
            return true
        case .open(let until):
            guard now >= until else { return false }
            state = .halfOpen(probing: true)
            return true
        case .halfOpen(let probing):
            if probing { return false }
            state = .halfOpen(probing: true)
            return true
        }
    }

    /// When a request could next start (`nil` = now, or when the probe in flight ends).
    public func reopensAt(now: Instant) -> Instant? {
        if case .open(let until) = state, until > now { return until }
        return nil
    }

    /// Whether the breaker refuses work at `now` (open and cooling down, or a probe is out).
    public func isOpen(now: Instant) -> Bool {
        switch state {
        case .closed: false
        case .open(let until): until > now
        case .halfOpen(let probing): probing
        }
    }

    /// Records a success.
    public mutating func recordSuccess() -> Transition? {
        defer { state = .closed(failures: 0) }
        switch state {
        case .closed: return nil
        case .open, .halfOpen: return .recovered
        }
    }

    /// Records a failure at `now`.
    public mutating func recordFailure(now: Instant) -> Transition? {
        switch state {
        case .closed(let failures):
            let count = failures + 1
            guard count >= threshold else {
                state = .closed(failures: count)
                return nil
            }
            state = .open(until: now.advanced(by: coolDown))
            return .degraded(failures: count)
        case .open, .halfOpen:
            state = .open(until: now.advanced(by: coolDown))
            return nil
        }
    }

    /// Records an outcome that says nothing about health (e.g. the request was cancelled): a half-open probe
    /// slot is freed without closing or re-opening the breaker.
    public mutating func recordNeutral() {
        if case .halfOpen = state { state = .halfOpen(probing: false) }
    }
}

import WatcherCore

/// The admission state machine of one provider: a priority queue of waiting requests in front of the token
/// bucket, the concurrency cap and the circuit breaker. Pure: the scheduler actor feeds it the time and acts on
/// what it returns.
///
/// Priority with aging: the most urgent waiting request goes first, but a request that has waited longer than
/// `agingLimit` goes before younger, more urgent ones, so a backlog of tip checks cannot starve backfill forever.
/// Backfill only takes a token while half the burst stays in the bucket: it uses leftover budget and never
/// delays a block.
public struct ProviderLane<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// A waiting request.
    public struct Ticket: Sendable, Equatable {
        /// Caller's id.
        public var id: UInt64
        /// Its priority.
        public var priority: RequestPriority
        /// When it joined the queue.
        public var enqueued: Instant
        /// When it stops being worth doing.
        public var deadline: Instant
        /// Tokens it takes: the HTTP requests the operation makes (a Blockbook tip takes 2).
        public var cost: Int

        /// Creates a ticket.
        public init(id: UInt64, priority: RequestPriority, enqueued: Instant, deadline: Instant, cost: Int = 1) {
            self.id = id
            self.priority = priority
            self.enqueued = enqueued
            self.deadline = deadline
            self.cost = cost
        }
    }

    /// What the scheduler should do.
    public enum Action: Sendable, Equatable {
        /// Let this request go.
        case grant(UInt64)
        /// This request's deadline passed while it waited.
        case expire(UInt64)
    }

    /// The request budget.
    public private(set) var bucket: TokenBucket<Instant>
    /// The health state.
    public private(set) var breaker: CircuitBreaker<Instant>
    /// Requests running now.
    public private(set) var inFlight = 0
    /// Requests waiting, in arrival order.
    public private(set) var queue: [Ticket] = []
    /// How long a request may wait before it is served ahead of more urgent ones.
    public let agingLimit: Duration
    /// After a 429: one request at a time until one is answered, so a pause never ends in a burst of refusals.
    public private(set) var probing = false
    /// Answers since the last 429, towards the next additive increase of the rate.
    public private(set) var successStreak = 0
    /// Answers in a row that win back ``TokenBucket/probeStep`` of the rate (slow additive probing).
    public static var answersPerProbe: Int { 10 }
    /// The window the server's rate is read from: it starts when a pause ends (the server had a token then) or
    /// when work starts after an idle spell, and it counts the tokens the server accepted since.
    public private(set) var window: (start: Instant, accepted: Int)?
    /// Since when nothing has been waiting or running (the server's bucket may fill up and waste tokens then).
    private var idleSince: Instant?

    /// Creates a lane.
    public init(limit: RateLimit, breaker: CircuitBreaker<Instant>, agingLimit: Duration = .seconds(30)) {
        self.bucket = TokenBucket(limit: limit)
        self.breaker = breaker
        self.agingLimit = agingLimit
    }

    /// Queues a request.
    public mutating func enqueue(_ ticket: Ticket) {
        // After an idle spell longer than an interval the server's bucket may have filled up and wasted tokens, so
        // the requests since the window started say nothing about its rate: start a new window.
        if let idle = idleSince, idle.advanced(by: bucket.interval) < ticket.enqueued { window = nil }
        idleSince = nil
        queue.append(ticket)
    }

    /// Removes a request that was cancelled while waiting.
    public mutating func cancel(_ id: UInt64) { queue.removeAll { $0.id == id } }

    /// Grants what can go at `now`, expires what is too late, and says when to look again.
    public mutating func poll(now: Instant) -> (actions: [Action], nextWake: Instant?) {
        var actions: [Action] = []
        for ticket in queue where ticket.deadline <= now { actions.append(.expire(ticket.id)) }
        queue.removeAll { $0.deadline <= now }
        var wake: Instant?
        while !queue.isEmpty, inFlight < (probing ? 1 : bucket.limit.concurrency) {
            if breaker.isOpen(now: now) {
                wake = breaker.reopensAt(now: now)
                break
            }
            guard let (index, ready) = nextReady(now: now) else { break }
            guard ready <= now else {
                wake = ready
                break
            }
            let ticket = queue[index]
            guard breaker.allowRequest(now: now), bucket.acquire(now: now, cost: ticket.cost) == .granted else { break }
            inFlight += 1
            if window == nil { window = (now, 0) }
            actions.append(.grant(queue.remove(at: index).id))
        }
        // Waiting on time (a token, a cool-down): wake then, or at a deadline that comes first. Waiting on the
        // concurrency cap: a finishing request polls again, so no timer is needed (and a simulated clock does not
        // jump ahead while requests are in flight).
        if let waitingOnTime = wake, let soonest = queue.map(\.deadline).min() { wake = min(waitingOnTime, soonest) }
        return (actions, wake)
    }

    /// The request to serve next and when it can start. Backfill runs on leftover budget: it leaves half the
    /// burst in the bucket, and a backfill request waiting for that (aged or not) never holds up the requests
    /// behind it, so a new block's requests never queue behind it.
    func nextReady(now: Instant) -> (index: Int, ready: Instant)? {
        var order = queue.indices.filter { queue[$0].enqueued.advanced(by: agingLimit) <= now }.prefix(1).map { $0 }
        order += queue.indices.filter { !order.contains($0) }.sorted {
            (queue[$0].priority, $0) < (queue[$1].priority, $1)
        }
        var soonest: (index: Int, ready: Instant)?
        for index in order {
            let ticket = queue[index]
            let reserve = (ticket.priority == .backfill ? bucket.limit.burst / 2 : 0) + max(0, ticket.cost - 1)
            let ready = bucket.earliest(now: now, reserve: reserve)
            if ready <= now { return (index, ready) }
            if soonest.map({ ready < $0.ready }) ?? true { soonest = (index, ready) }
            if ticket.priority != .backfill { break }
        }
        return soonest
    }

    /// When a new request of any priority could start, ignoring the queue: for failover decisions.
    public func earliestStart(now: Instant) -> Instant {
        var at = bucket.earliest(now: now)
        if let reopen = breaker.reopensAt(now: now), reopen > at { at = reopen }
        return at
    }

    /// Records that a granted request finished.
    /// - Parameters:
    ///   - outcome: how it ended.
    ///   - pauseUntil: for `.rateLimited` and `.overloaded`, when the provider may be asked again (from
    ///     `Retry-After` or backoff).
    ///   - now: the time.
    ///   - cost: the tokens the request took (counted towards the server's rate when it was answered).
    /// - Returns: a breaker transition to report, if any.
    public mutating func finish(
        _ outcome: RequestOutcome,
        pauseUntil: Instant? = nil,
        now: Instant,
        cost: Int = 1
    ) -> CircuitBreaker<Instant>.Transition? {
        inFlight = max(0, inFlight - 1)
        defer { if inFlight == 0, queue.isEmpty { idleSince = now } }
        if outcome != .rateLimited, outcome != .overloaded, outcome != .neutral { probing = false }
        switch outcome {
        case .success:
            successStreak += 1
            // An answer that comes during a pause was granted before it: it belongs to no window.
            if let start = window?.start, start <= now { window?.accepted += max(1, cost) }
            // Additive increase: ten answers in a row without a refusal win back a small step of the rate.
            if bucket.slowdown > 1, successStreak >= Self.answersPerProbe {
                bucket.speedUp()
                successStreak = 0
            }
            return breaker.recordSuccess()
        case .failure:
            return breaker.recordFailure(now: now)
        case .rateLimited, .overloaded:
            refused(pauseUntil: pauseUntil ?? now, now: now)
            if outcome == .overloaded { return breaker.recordFailure(now: now) }
            breaker.recordNeutral()
            return nil
        case .neutral:
            breaker.recordNeutral()
            return nil
        }
    }

    /// A 429 or 503: pause until `resume`, one request at a time after it, and a slower rate.
    ///
    /// Multiplicative decrease, once per refusal episode (requests already in flight when the first refusal came
    /// may be refused too, and say nothing new), to at least the interval the server showed: from the window's
    /// start (when the server had a token) to `resume` (when it has its next) it accepted `accepted` tokens, so
    /// asking no faster than `(resume - start) / accepted` keeps within what it just allowed. That interval is
    /// kept, with the margin of a configured limit (the network's jitter). Re-probing faster than that would only
    /// draw the next refusal.
    mutating func refused(pauseUntil resume: Instant, now: Instant) {
        let sameEpisode = bucket.pausedUntil.map { $0 > now } ?? false
        if !sameEpisode {
            if let window, window.accepted > 0, window.start < resume {
                bucket.slowDown(
                    by: 1.25,
                    toAtLeast: RateLimit.withSafetyMargin(window.start.duration(to: resume) / window.accepted)
                )
            } else {
                bucket.slowDown()
            }
            window = (resume, 0)
        }
        successStreak = 0
        probing = true
        bucket.pause(until: resume)
    }

    /// Pauses the bucket (a 429 whose retry time was computed by the caller).
    public mutating func pause(until: Instant) { bucket.pause(until: until) }
}

/// How a granted request ended, as far as provider health is concerned.
public enum RequestOutcome: Sendable, Equatable {
    /// The provider answered properly (including "not found").
    case success
    /// 5xx, timeout, malformed or wrong-shaped answer, connection failure.
    case failure
    /// 429: the bucket pauses; the provider is not unhealthy.
    case rateLimited
    /// 503 (a node's "Work queue depth exceeded", an overloaded or down server): the bucket pauses as for a 429,
    /// and it counts as a failure towards the breaker, so a server that only answers 503 is still failed over.
    case overloaded
    /// Cancelled: says nothing about health.
    case neutral
}

import Logging
import WatcherCore
import WatcherObservability

extension Scheduler {
    /// Runs `operation` against the first usable provider of `providers`, within the rate limits.
    ///
    /// - A provider is skipped while its breaker is open, while it reports it is out of sync, or when its budget
    ///   cannot start the request before the deadline, as long as a later provider can. Work returns to the first
    ///   provider as soon as it is usable again.
    /// - 429: the provider's bucket pauses until `Retry-After` (or a backoff), learns a slower rate, and the job
    ///   tries again.
    /// - 503 (an overloaded node's "Work queue depth exceeded", or any 503): the same pause and slower rate as a
    ///   429, with a backoff for the pause; it also counts as a failure, towards `maxAttempts` and the breaker.
    /// - Other 5xx, timeouts, invalid responses: retried with backoff, up to `maxAttempts`.
    /// - "Not found" and "bad request" answers are returned at once.
    /// - Parameters:
    ///   - providers: provider ids in failover order.
    ///   - priority: how urgent.
    ///   - budget: how long the job may take, waiting included.
    ///   - cost: the HTTP requests the operation makes on a provider (tokens it takes), 1 by default.
    ///   - operation: the request, given the chosen provider id.
    public func perform<T: Sendable>(
        on providers: [String],
        priority: RequestPriority,
        budget: Duration,
        cost: @Sendable (String) -> Int = { _ in 1 },
        _ operation: @Sendable (String) async throws -> T
    ) async throws -> T {
        let deadline = clock.now.advanced(by: budget)
        var failures = 0
        var lastError: (any Error)?
        while true {
            try Task.checkCancellation()
            guard let provider = choose(providers, deadline: deadline) else {
                throw lastError ?? ProviderError.rateLimited(provider: providers.first ?? "?", retryAfter: nil)
            }
            noteFailover(primary: providers.first ?? provider, using: provider)
            let queued = clock.now
            let tokens = cost(provider)
            do {
                try await acquire(provider, priority: priority, deadline: deadline, cost: tokens)
                metrics.rateLimiterWait(provider, queued.duration(to: clock.now))
                publish(provider)
            } catch is DeadlineExceeded {
                throw lastError ?? ProviderError.rateLimited(provider: provider, retryAfter: nil)
            }
            do {
                let result = try await operation(provider)
                finish(provider, .success, cost: tokens)
                record(provider, "ok", reachable: true)
                return result
            } catch let error as ProviderError {
                lastError = error
                switch error {
                case .rateLimited(_, let retryAfter):
                    record(provider, "rate_limited", reachable: true)
                    let wait = retryAfter ?? policy.backoff.delay(attempt: failures, using: &random)
                    finish(provider, .rateLimited, pauseUntil: clock.now.advanced(by: wait))
                case .unavailable(_, 503?, _):
                    // Overloaded: the limiter backs off as for a 429 (the pause replaces the sleep), and the
                    // attempt counts as a failure.
                    record(provider, Self.status(of: error), reachable: false, reason: error.description)
                    let wait = policy.backoff.delay(attempt: failures, using: &random)
                    failures += 1
                    finish(provider, .overloaded, pauseUntil: clock.now.advanced(by: wait))
                    guard failures < policy.maxAttempts else { throw error }
                case .notFound, .badRequest, .unsupported:
                    finish(provider, .success)
                    record(provider, "rejected", reachable: true)
                    throw error
                case .unavailable, .invalidResponse, .timeout, .transport:
                    finish(provider, .failure)
                    record(provider, Self.status(of: error), reachable: false, reason: error.description)
                    failures += 1
                    guard failures < policy.maxAttempts else { throw error }
                    let wait = policy.backoff.delay(attempt: failures - 1, using: &random)
                    guard clock.now.advanced(by: wait) < deadline else { throw error }
                    try await clock.sleep(for: wait)
                }
            } catch {
                finish(provider, .neutral)
                record(provider, "cancelled", reachable: true)
                throw error
            }
        }
    }

    /// The `status` label of a failed operation.
    static func status(of error: ProviderError) -> String {
        switch error {
        case .invalidResponse: "decode_error"
        case .timeout: "timeout"
        case .transport: "transport"
        default: "unavailable"
        }
    }

    func record(_ provider: String, _ status: String, reachable: Bool, reason: String? = nil) {
        metrics.providerRequest(provider, status: status)
        if status != "cancelled" { board?.record(provider, reachable: reachable, reason: reason) }
    }

    /// The first provider that can serve before `deadline`, preferring list order.
    func choose(_ providers: [String], deadline: C.Instant) -> String? {
        let now = clock.now
        var fallback: String?
        for id in providers {
            guard let lane = lanes[id] else { continue }
            let usable = unhealthy[id] == nil && asideReasons[id] == nil && !lane.breaker.isOpen(now: now)
            if usable, lane.earliestStart(now: now) <= deadline { return id }
            if fallback == nil, lane.earliestStart(now: now) <= deadline { fallback = id }
        }
        // Every provider is out of sync or open-circuited: still try the first one that has budget (a half-open
        // probe, or an out-of-sync instance is better than nothing).
        return fallback
    }

    /// Logs once when a job list moves off its first provider, and once when it comes back.
    func noteFailover(primary: String, using provider: String) {
        let previous = failoverTarget[primary]
        if provider == primary {
            guard previous != nil else { return }
            failoverTarget[primary] = nil
            logger.notice("traffic back on primary provider", metadata: ["provider": "\(primary)"])
        } else if previous != provider {
            failoverTarget[primary] = provider
            logger.warning("failing over", metadata: ["from": "\(primary)", "to": "\(provider)"])
        }
    }

    /// Waits for a slot on `provider`.
    func acquire(_ provider: String, priority: RequestPriority, deadline: C.Instant, cost: Int = 1) async throws {
        guard lanes[provider] != nil else {
            throw ProviderError.unsupported(provider: provider, operation: "scheduling")
        }
        nextTicket += 1
        let id = nextTicket
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if cancelledEarly.remove(id) != nil {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                waiters[id] = continuation
                ticketLane[id] = provider
                lanes[provider]?.enqueue(
                    .init(id: id, priority: priority, enqueued: clock.now, deadline: deadline, cost: cost)
                )
                _ = pump(provider)
                poke()
            }
        } onCancel: {
            // The handler cannot await; hop onto the actor to dequeue the ticket.
            Task { await self.cancelTicket(id) }
        }
    }

    func cancelTicket(_ id: UInt64) {
        guard let provider = ticketLane.removeValue(forKey: id) else {
            if waiters[id] == nil, id == nextTicket { cancelledEarly.insert(id) }
            return
        }
        lanes[provider]?.cancel(id)
        waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }

    /// Logs the rate repeated 429s taught once it has held for 5 answers in a row (the learning steps are silent),
    /// and again only if it falls a fifth below what was logged (AIMD probes upwards and back all the time); and
    /// once when the configured rate is back.
    func noteLearnedRate(_ provider: String, _ lane: ProviderLane<C.Instant>) {
        let bucket = lane.bucket
        let rate = bucket.currentRequestsPerHour
        let last = loggedRate[provider]
        if bucket.slowdown > 1, lane.successStreak == 5, rate < (last ?? .infinity) * 0.8 {
            loggedRate[provider] = rate
            logger.warning(
                "provider refuses requests below its configured rate; keeping to the rate it accepts",
                metadata: [
                    "provider": "\(provider)", "learnedPerMinute": "\(Int((rate / 60).rounded()))",
                    "configuredPerMinute":
                        "\(Int((3600 / max(bucket.baseInterval.seconds, 0.000_001) / 60).rounded()))",
                ]
            )
        } else if bucket.slowdown == 1, last != nil {
            loggedRate[provider] = nil
            logger.notice("provider accepts its configured rate again", metadata: ["provider": "\(provider)"])
        }
    }

    /// Publishes a provider's rate-limiter and breaker state as gauges.
    func publish(_ provider: String) {
        guard let lane = lanes[provider] else { return }
        let bucket = lane.bucket
        let unlimited = bucket.limit.requests == 0
        metrics.rateLimiter(
            provider,
            tokens: unlimited ? Double(bucket.limit.burst) : Double(bucket.available(now: clock.now)),
            ratePerSecond: unlimited ? 0 : bucket.currentRequestsPerHour / 3600
        )
        let state: Int =
            switch lane.breaker.state {
            case .closed: 0
            case .halfOpen: 1
            case .open: 2
            }
        metrics.circuitState(provider, state)
    }

    func finish(_ provider: String, _ outcome: RequestOutcome, pauseUntil: C.Instant? = nil, cost: Int = 1) {
        guard var lane = lanes[provider] else { return }
        let transition = lane.finish(outcome, pauseUntil: pauseUntil, now: clock.now, cost: cost)
        lanes[provider] = lane
        noteLearnedRate(provider, lane)
        publish(provider)
        switch transition {
        case .degraded(let failures)?:
            report(ProviderTransition(provider: provider, kind: .degraded, reason: "\(failures) consecutive failures"))
        case .recovered?:
            report(ProviderTransition(provider: provider, kind: .recovered, reason: "answering again"))
        case nil:
            break
        }
        _ = pump(provider)
        poke()
    }
}

import Logging
import ServiceLifecycle
import WatcherCore
import WatcherObservability

/// Every provider request goes through the scheduler: a per-provider token bucket and concurrency cap with a
/// priority queue in front, `Retry-After` pauses, retries with backoff, a circuit breaker per provider, and
/// failover along a watch's provider list. Generic over the clock so tests run on a ``ManualClock``.
///
/// ```swift
/// let tip = try await scheduler.perform(on: ["bb", "bci"], priority: .tip, budget: .seconds(30)) { id in
///     try await providers[id]!.tip()
/// }
/// ```
/// Timed wake-ups need ``run()`` to be running (it is a `Service` in `watcher run`).
public actor Scheduler<C: Clock>: Service where C.Duration == Duration {
    let clock: C
    let policy: SchedulerPolicy
    let logger: Logger
    let onTransition: @Sendable (ProviderTransition) -> Void
    let metrics: WatcherMetrics
    let board: ProviderHealthBoard?
    var lanes: [String: ProviderLane<C.Instant>] = [:]
    var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    var ticketLane: [UInt64: String] = [:]
    var nextTicket: UInt64 = 0
    /// Tickets whose task was cancelled before they were queued.
    var cancelledEarly: Set<UInt64> = []
    var unhealthy: [String: String] = [:]
    /// Providers the engine's trust rules set aside (lagging, or on another chain), with why.
    var asideReasons: [String: String] = [:]
    var failoverTarget: [String: String] = [:]
    /// The learned rate last logged per provider (requests per hour).
    var loggedRate: [String: Double] = [:]
    var random: SplitMixRandom
    /// Wakes the timer loop early (a new wake-up time may be sooner than the one it sleeps towards). A fresh
    /// stream per sleep: cancelling the task that awaits a stream finishes that stream for good.
    var wakeTimer: AsyncStream<Void>.Continuation?

    /// Creates a scheduler.
    /// - Parameters:
    ///   - limits: each provider id's rate limit.
    ///   - policy: retries, breaker and fairness.
    ///   - clock: the time source.
    ///   - seed: seeds the backoff jitter.
    ///   - logger: state changes are logged once each.
    ///   - onTransition: receives `degraded` / `recovered` changes.
    ///   - metrics: request, 429 and wait-time metrics.
    ///   - board: reachability for `/healthz`.
    public init(
        limits: [String: RateLimit],
        policy: SchedulerPolicy = .init(),
        clock: C,
        seed: UInt64 = 0x5EED,
        logger: Logger = Logger(label: "watcher.scheduler"),
        onTransition: @escaping @Sendable (ProviderTransition) -> Void = { _ in },
        metrics: WatcherMetrics = .none,
        board: ProviderHealthBoard? = nil
    ) {
        self.clock = clock
        self.metrics = metrics
        self.board = board
        self.policy = policy
        self.logger = logger
        self.onTransition = onTransition
        self.random = SplitMixRandom(seed: seed)
        for (id, limit) in limits {
            lanes[id] = ProviderLane(
                limit: limit.withSafetyMargin,
                breaker: CircuitBreaker(threshold: policy.breakerThreshold, coolDown: policy.breakerCoolDown),
                agingLimit: policy.agingLimit
            )
        }
    }

    /// Drives timed wake-ups (tokens refilling, pauses and cool-downs ending, deadlines) until cancelled or
    /// gracefully shut down.
    public func run() async throws {
        try await cancelWhenGracefulShutdown { try await self.timerLoop() }
    }

    func timerLoop() async throws {
        while !Task.isCancelled {
            let wake = pumpAll()
            let clock = self.clock
            // No suspension between pumping and arming: a poke cannot slip in between.
            let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            wakeTimer = continuation
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in stream { return }
                }
                if let wake {
                    group.addTask { try? await clock.sleep(until: wake, tolerance: nil) }
                }
                await group.next()
                group.cancelAll()
            }
            wakeTimer = nil
            continuation.finish()
        }
        for (_, waiter) in waiters { waiter.resume(throwing: CancellationError()) }
        waiters.removeAll()
    }

    /// Makes the timer loop recompute its wake-up time.
    func poke() {
        wakeTimer?.yield()
    }

    /// The most requests the providers take at once: the largest concurrency among them (a round that runs this
    /// many at a time keeps its first provider busy, and failover may spread them).
    public func concurrency(of providers: [String]) -> Int {
        max(1, providers.compactMap { lanes[$0]?.bucket.limit.concurrency }.max() ?? 1)
    }

    /// Whether `provider` has budget nobody is using: nothing queued and its bucket at least three quarters full (a
    /// request in flight does not count against it: it has its token already, and the tip job's often is). Work that is only nice to have (the recent blocks shown at start) asks this first, so it spends
    /// only what would go unused and a tight limit (a public Blockbook's 20 a minute) stays with the work that
    /// announces events.
    public func hasSpareBudget(_ provider: String) -> Bool {
        guard let lane = lanes[provider] else { return false }
        let available = lane.bucket.available(now: clock.now)
        return lane.queue.isEmpty && (available == .max || available * 4 >= lane.bucket.limit.burst * 3)
    }

    /// Whether the last request to `provider` got an answer (true when nothing was asked yet, or with no board).
    public nonisolated func isReachable(_ provider: String) -> Bool {
        board?.snapshot()[provider]?.reachable ?? true
    }

    /// Records the tip height `provider` reported (for `/metrics`: how far each provider lags the others).
    public nonisolated func noteTip(_ provider: String, height: Int) {
        board?.recordTip(provider, height: height)
        metrics.providerTip(provider, height: height)
    }

    /// Records that `chain` moved to a new tip now (for `/metrics`: seconds since the last block).
    public nonisolated func noteBlock(chain: String) {
        board?.recordBlock(chain: chain)
    }

    /// Marks a provider in or out of sync (from its status probe). Out-of-sync providers are skipped while the
    /// list has another. Logged and reported once per change.
    public func setHealth(_ provider: String, healthy: Bool, reason: String? = nil) {
        board?.recordSync(provider, inSync: healthy, reason: reason)
        if healthy {
            guard unhealthy.removeValue(forKey: provider) != nil else { return }
            report(ProviderTransition(provider: provider, kind: .recovered, reason: "in sync again"))
        } else {
            guard unhealthy[provider] == nil else { return }
            let why = reason ?? "not in sync"
            unhealthy[provider] = why
            report(ProviderTransition(provider: provider, kind: .degraded, reason: why))
        }
    }

    /// Sets a provider aside for the engine's trust rules (`reason`: lagging, or on another chain), or takes it
    /// back (`nil`). A set-aside provider is skipped while the list has another, as an out-of-sync one. Reported
    /// as `degraded` with the reason when set aside, and as `recovered` when taken back.
    public func setAside(_ provider: String, reason: String?) {
        if let reason {
            asideReasons[provider] = reason
            report(ProviderTransition(provider: provider, kind: .degraded, reason: reason))
        } else {
            guard asideReasons.removeValue(forKey: provider) != nil else { return }
            report(
                ProviderTransition(
                    provider: provider,
                    kind: .recovered,
                    reason: "agrees with the other providers again"
                )
            )
        }
    }

    /// Whether the trust rules set `provider` aside.
    public func isSetAside(_ provider: String) -> Bool { asideReasons[provider] != nil }

    func report(_ transition: ProviderTransition) {
        switch transition.kind {
        case .degraded:
            logger.warning(
                "provider degraded",
                metadata: ["provider": "\(transition.provider)", "reason": "\(transition.reason)"]
            )
        case .recovered:
            logger.notice(
                "provider recovered",
                metadata: ["provider": "\(transition.provider)", "reason": "\(transition.reason)"]
            )
        }
        onTransition(transition)
    }

    /// Polls every lane, resumes granted and expired waiters, and returns the soonest wake-up.
    @discardableResult
    func pumpAll() -> C.Instant? {
        var soonest: C.Instant?
        for id in lanes.keys {
            if let wake = pump(id) { soonest = soonest.map { min($0, wake) } ?? wake }
        }
        return soonest
    }

    func pump(_ id: String) -> C.Instant? {
        guard var lane = lanes[id] else { return nil }
        let (actions, wake) = lane.poll(now: clock.now)
        lanes[id] = lane
        for action in actions {
            switch action {
            case .grant(let ticket):
                ticketLane[ticket] = nil
                waiters.removeValue(forKey: ticket)?.resume()
            case .expire(let ticket):
                ticketLane[ticket] = nil
                waiters.removeValue(forKey: ticket)?.resume(throwing: DeadlineExceeded(provider: id))
            }
        }
        return wake
    }
}

/// A request waited past its deadline for a slot.
struct DeadlineExceeded: Error {
    let provider: String
}

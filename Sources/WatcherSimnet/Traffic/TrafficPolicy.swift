import WatcherCore

/// Decides, per request, whether a family's answer is rate-limited, faulted or normal, and keeps
/// the statistics. A pure state machine: the caller passes the time; faults are drawn from a
/// seeded generator of their own, so request traffic never changes the chain.
struct TrafficPolicy: Sendable {
    /// What to do with one request.
    enum Admission: Sendable, Equatable {
        /// Serve it normally.
        case pass
        /// Answer 429 with `Retry-After: seconds`.
        case rateLimited(retryAfter: Int)
        /// Serve it with this fault (`status` for server errors).
        case fault(FaultConfiguration.Kind, status: Int, configuration: FaultConfiguration)
    }

    private(set) var buckets: [ProviderFamily: SimnetTokenBucket] = [:]
    private(set) var faults: [ProviderFamily: FaultConfiguration] = [:]
    private(set) var stats = SimnetStats()
    private var rng: SplitMixRandom

    init(seed: UInt64) {
        rng = SplitMixRandom(seed: seed ^ 0x4641_554c_5453_2121)
    }

    /// Sets or clears (`nil` or `requests == 0`) a family's rate limit; the bucket starts full.
    mutating func setRateLimit(_ limit: RateLimit?, for family: ProviderFamily, now: Double) {
        if let limit, limit.requests > 0 {
            buckets[family] = SimnetTokenBucket(limit: limit, now: now)
        } else {
            buckets[family] = nil
        }
    }

    /// Sets or clears (`nil` or rate 0) a family's faults.
    mutating func setFaults(_ configuration: FaultConfiguration?, for family: ProviderFamily) {
        if let configuration, configuration.rate > 0 {
            faults[family] = configuration
        } else {
            faults[family] = nil
        }
    }

    /// Counts a request and decides how to answer it. A rate-limited request is logged here.
    /// `endpoints` are the statistics keys (default: the one of `path`); a JSON-RPC batch counts each method.
    mutating func admit(family: ProviderFamily, path: String, endpoints: [String]? = nil, now: Double) -> Admission {
        stats.families[family, default: .init()].requests += 1
        for endpoint in endpoints ?? [ProviderFamily.endpoint(for: path)] {
            stats.families[family, default: .init()].endpoints[endpoint, default: 0] += 1
        }
        if let retryAfter = buckets[family]?.take(now: now) {
            stats.families[family, default: .init()].rateLimited += 1
            log(family: family, path: path, status: 429, retryAfter: retryAfter, fault: nil, now: now)
            return .rateLimited(retryAfter: retryAfter)
        }
        guard let configuration = faults[family], rng.chance(configuration.rate) else { return .pass }
        let kind = rng.element(of: configuration.kinds)
        let status = configuration.statuses.isEmpty ? 500 : rng.element(of: configuration.statuses)
        stats.families[family, default: .init()].faults += 1
        return .fault(kind, status: status, configuration: configuration)
    }

    /// Appends a request to the log.
    mutating func log(
        family: ProviderFamily,
        path: String,
        status: Int,
        retryAfter: Int?,
        fault: FaultConfiguration.Kind?,
        now: Double
    ) {
        stats.append(
            SimnetStats.LogEntry(
                t: now,
                family: family,
                path: path,
                status: status,
                retryAfter: retryAfter,
                fault: fault
            )
        )
    }

    /// Zeroes the counters and empties the log.
    mutating func resetStats() {
        stats = SimnetStats()
    }
}

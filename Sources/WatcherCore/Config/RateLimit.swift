/// A provider's request budget: `requests` per `per`, with a bucket of `burst` tokens and at most
/// `concurrency` requests in flight. Written in config as
/// `{"requests": 20, "per": "1m", "burst": 20, "concurrency": 4}`.
public struct RateLimit: Sendable, Equatable, Hashable {
    /// Requests allowed per period; 0 means unlimited.
    public var requests: Int
    /// The period.
    public var per: Duration
    /// The bucket size: how many requests may go at once after a quiet spell.
    public var burst: Int
    /// Requests in flight at once.
    public var concurrency: Int

    /// Creates a rate limit.
    public init(requests: Int, per: Duration, burst: Int? = nil, concurrency: Int = 4) {
        self.requests = requests
        self.per = per
        self.burst = burst ?? max(1, requests)
        self.concurrency = concurrency
    }

    /// Requests per hour this limit allows, the unit of the budget plan.
    public var requestsPerHour: Double {
        requests == 0 ? .infinity : Double(requests) * 3600 / per.seconds
    }

    /// The limit the watcher keeps to so that it never exceeds this one as the server counts it: each interval
    /// 2% longer plus 10 ms (two clocks never agree to the millisecond), and a burst one smaller (the token held
    /// back absorbs the network's jitter: two requests granted an interval apart may arrive closer together).
    /// Unlimited stays unlimited. The margin costs about 5% of a 10-per-5-s budget (it was 5% + 20 ms, which cost
    /// about 9%; see docs/benchmarks.md).
    public var withSafetyMargin: RateLimit {
        guard requests > 0 else { return self }
        let interval = per / requests
        let safe = Self.withSafetyMargin(interval)
        return RateLimit(requests: requests, per: safe * requests, burst: max(1, burst - 1), concurrency: concurrency)
    }

    /// An interval between requests made 2% + 10 ms longer: the margin of ``withSafetyMargin``, also kept on an
    /// interval learned from a server's refusals.
    public static func withSafetyMargin(_ interval: Duration) -> Duration {
        interval * 1.02 + .milliseconds(10)
    }

    /// The compact text form used on command lines: `20/1m`.
    public var shortText: String { "\(requests)/\(per.configText)" }

    /// Parses the compact form `20/1m` (burst defaults to the request count).
    public init?(shortText text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let requests = Int(parts[0]), requests >= 0,
            let per = Duration(configText: String(parts[1])), per > .zero
        else { return nil }
        self.init(requests: requests, per: per)
    }
}

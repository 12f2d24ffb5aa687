import WatcherCore

/// Works a ``JobPlan`` out of a config: one place that knows which jobs each watch shape needs.
struct JobPlanner {
    let config: WatcherConfig
    let settings: JobPlan.Settings

    static func perHour(_ every: Duration) -> Double { 3600 / max(every.seconds, 0.001) }

    func tipCost(_ id: String?) -> Int {
        id.flatMap { config.provider($0) }?.plugin.entry.descriptor.requestsPerTip ?? 1
    }

    func has(_ id: String, _ capability: ChainCapabilities) -> Bool {
        config.provider(id)?.chainCapabilities.contains(capability) ?? false
    }

    /// Requests one round over `count` addresses costs on `provider`.
    func roundCost(_ count: Int, on provider: String?) -> (requests: Int, how: String) {
        let batch = provider.flatMap { config.provider($0) }.flatMap(\.batchSize)
        guard let batch else { return (count, "\(count) address request(s)") }
        let requests = (count + batch - 1) / batch
        return (requests, "\(count) addresses in \(requests) batch request(s)")
    }

    mutating func plan() -> [JobPlan.Job] {
        var jobs: [JobPlan.Job] = []
        let watches = config.watches
        let chainProviders = config.providers.filter(\.servesChain)
        let chains = Set(watches.filter { $0.kind != .price }.map(\.chain)).union(chainProviders.map(\.chain))
        for chain in chains.sorted() {
            jobs += chainJobs(chain, providers: chainProviders.filter { $0.chain == chain }.map(\.id))
        }
        for watch in watches where watch.kind == .tx {
            jobs.append(
                .init(
                    name: "watch \(watch.id)",
                    work: .tx(chain: watch.chain, watch: watch.id),
                    providers: watch.providers,
                    every: watch.every,
                    requestsPerHour: Self.perHour(watch.every),
                    detail: "1 request every \(watch.every.configText) until settled" + agreeText(watch),
                    whileFollowing: false,
                    alsoAsks: secondOpinionCost(watch)
                )
            )
        }
        for watch in watches where watch.kind == .price {
            jobs.append(priceJob(watch))
        }
        let used = Set(jobs.flatMap(\.providers))
        for provider in chainProviders where provider.chainCapabilities.contains(.status) && used.contains(provider.id)
        {
            let every = settings.healthInterval
            jobs.append(
                .init(
                    name: "health \(provider.id)",
                    work: .health(provider: provider.id),
                    providers: [provider.id],
                    every: every,
                    requestsPerHour: Self.perHour(every),
                    detail: "sync-state probe every \(every.configText)",
                    whileFollowing: false
                )
            )
        }
        for provider in config.providers
        where !provider.chainCapabilities.contains(.status) && used.contains(provider.id) {
            let every = settings.healthInterval
            jobs.append(
                .init(
                    name: "recovery \(provider.id)",
                    work: .recovery(provider: provider.id),
                    providers: [provider.id],
                    every: every,
                    requestsPerHour: 0,
                    detail: "1 request every \(every.configText) only while unreachable",
                    whileFollowing: false
                )
            )
        }
        return jobs
    }

    func priceJob(_ watch: WatchConfig) -> JobPlan.Job {
        let primary = watch.providers.first.flatMap { config.provider($0) }
        var wanted = Set(PriceCurrencies.standard + watch.currencies)
        if let quoted = primary?.priceCurrencies { wanted.formIntersection(quoted) }
        let perCurrency = primary?.plugin.entry.descriptor.requestPerCurrency ?? false
        let perRun = perCurrency ? max(1, wanted.count) : 1
        return .init(
            name: "watch \(watch.id)",
            work: .price(watch: watch.id),
            providers: watch.providers,
            every: watch.every,
            requestsPerHour: Double(perRun) * Self.perHour(watch.every),
            detail: perCurrency
                ? "\(perRun) quote requests (one per currency) every \(watch.every.configText)"
                : "1 quote request every \(watch.every.configText)",
            whileFollowing: false
        )
    }
}

/// The currencies every price watch records, besides its own.
public enum PriceCurrencies {
    /// USD, GBP and EUR: what `watcher price` and fiat values show.
    public static let standard = ["USD", "GBP", "EUR"]
}

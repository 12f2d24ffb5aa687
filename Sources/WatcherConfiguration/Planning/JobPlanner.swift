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
        for chain in chains.sorted() {
            if let job = feeJob(chain) { jobs.append(job) }
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
        let perRun = { (id: String) -> Int in
            let provider = self.config.provider(id)
            var wanted = Set(PriceCurrencies.standard + watch.currencies)
            if let quoted = provider?.priceCurrencies { wanted.formIntersection(quoted) }
            let perCurrency = provider?.plugin.entry.descriptor.requestPerCurrency ?? false
            return perCurrency ? max(1, wanted.count) : 1
        }
        let first = perRun(watch.providers.first ?? "")
        let every = watch.every.configText
        var detail =
            first > 1
            ? "\(first) quote requests (one per currency) every \(every)" : "1 quote request every \(every)"
        var alsoAsks: [String: Double] = [:]
        if watch.median {
            for id in watch.providers.dropFirst() {
                alsoAsks[id, default: 0] += Double(perRun(id)) * Self.perHour(watch.every)
            }
            detail += "; median: each of \(watch.providers.joined(separator: ", ")) is asked every round"
        }
        return .init(
            name: "watch \(watch.id)",
            work: .price(watch: watch.id),
            providers: watch.providers,
            every: watch.every,
            requestsPerHour: Double(first) * Self.perHour(watch.every),
            detail: detail,
            whileFollowing: false,
            alsoAsks: alsoAsks
        )
    }

    /// The fee job of `chain`, when a wallet's requests hold zero-conf payments to the next-block fee rate: the
    /// estimate from those wallets' providers that have one, as often as the most frequent of those wallets polls
    /// (at least every 10 s), and at once on a new block.
    func feeJob(_ chain: String) -> JobPlan.Job? {
        let wallets = config.watches.filter {
            $0.chain == chain && $0.kind == .wallet && $0.requests?.zeroConf?.minFeeRateNextBlock == true
        }
        guard let fastest = wallets.map(\.every).min() else { return nil }
        var providers: [String] = []
        for id in wallets.flatMap(\.providers) where has(id, .feeEstimate) && !providers.contains(id) {
            providers.append(id)
        }
        let every = max(fastest, .seconds(10))
        return .init(
            name: "fee \(chain)",
            work: .fee(chain: chain),
            providers: providers,
            every: every,
            requestsPerHour: Self.perHour(every) + settings.blocksPerHour,
            detail: "1 next-block fee estimate every \(every.configText) and on each new block, for "
                + "zeroConf.minFeeRate \"nextBlock\" of \(wallets.map(\.id).joined(separator: ", "))",
            whileFollowing: false
        )
    }
}

/// The currencies every price watch records, besides its own.
public enum PriceCurrencies {
    /// USD, GBP and EUR: what `watcher price` and fiat values show.
    public static let standard = ["USD", "GBP", "EUR"]
}

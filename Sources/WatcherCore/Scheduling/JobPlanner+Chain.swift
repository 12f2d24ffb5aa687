/// The jobs of one chain: its tip (a `blocks` watch, or the implicit tip tracker), its `address` watches, and
/// its CLI-followed accounts.
extension JobPlanner {
    func chainJobs(_ chain: String, providers all: [String]) -> [JobPlan.Job] {
        let watches = config.watches.filter { $0.chain == chain && $0.kind != .price }
        let addressWatches = watches.filter { $0.kind == .address }
        let followers = watches.filter { $0.kind == .address || $0.kind == .tx }
        let accounts = settings.accounts[chain] ?? 0
        var jobs: [JobPlan.Job] = []
        if let blocks = watches.first(where: { $0.kind == .blocks }) {
            jobs.append(
                tipJob(
                    chain,
                    name: "watch \(blocks.id)",
                    watch: blocks.id,
                    providers: blocks.providers,
                    every: blocks.every,
                    maxBackfill: blocks.maxBackfill,
                    announce: true,
                    active: true
                )
            )
        } else {
            var ordered: [String] = []
            for id in followers.flatMap(\.providers) + all where !ordered.contains(id) && has(id, .tip) {
                ordered.append(id)
            }
            if !ordered.isEmpty {
                jobs.append(
                    tipJob(
                        chain,
                        name: "tip \(chain)",
                        watch: "tip-\(chain)",
                        providers: ordered,
                        every: watches.map(\.every).min() ?? settings.tipInterval,
                        maxBackfill: 0,
                        announce: false,
                        active: !followers.isEmpty || accounts > 0
                    )
                )
            }
        }
        for watch in addressWatches {
            let (requests, how) = roundCost(watch.addresses.count, on: watch.providers.first)
            jobs.append(
                .init(
                    name: "watch \(watch.id)",
                    work: .addresses(chain: chain, watch: watch.id),
                    providers: watch.providers,
                    every: watch.every,
                    requestsPerHour: Double(requests) * Self.perHour(watch.every),
                    detail: "\(how) every \(watch.every.configText), plus history when a balance changes",
                    whileFollowing: false
                )
            )
        }
        let accountProviders = addressWatches.first?.providers ?? all.filter { has($0, .address) }
        if !accountProviders.isEmpty {
            let refresh = settings.accountsInterval
            let (requests, how) = roundCost(accounts, on: accountProviders.first)
            jobs.append(
                .init(
                    name: "accounts \(chain)",
                    work: .accounts(chain: chain, refresh: refresh),
                    providers: accountProviders,
                    every: settings.accountsCheck,
                    requestsPerHour: Double(requests) * Self.perHour(refresh),
                    detail: accounts == 0
                        ? "no CLI-followed accounts (the store is read every \(settings.accountsCheck.configText))"
                        : "\(how) every \(refresh.configText) for CLI-followed accounts, new ones at once",
                    whileFollowing: true
                )
            )
        }
        return jobs
    }

    func tipJob(
        _ chain: String,
        name: String,
        watch: String,
        providers: [String],
        every: Duration,
        maxBackfill: Int,
        announce: Bool,
        active: Bool
    ) -> JobPlan.Job {
        let headerProviders = providers.filter { has($0, .block) }
        let cost = tipCost(providers.first)
        let perHour = Double(cost) * Self.perHour(every) + (headerProviders.isEmpty ? 0 : settings.blocksPerHour)
        var detail = "tip every \(every.configText)" + (cost > 1 ? " (\(cost) requests each)" : "")
        detail += headerProviders.isEmpty ? " (no block headers)" : " + ~\(Int(settings.blocksPerHour)) block headers"
        if !active { detail = "idle until an address or txid of \(chain) is followed; then " + detail }
        return .init(
            name: name,
            work: .chain(
                chain: chain,
                watch: watch,
                maxBackfill: maxBackfill,
                announce: announce,
                headerProviders: headerProviders
            ),
            providers: providers,
            every: every,
            requestsPerHour: active ? perHour : 0,
            detail: detail,
            whileFollowing: !announce
        )
    }
}

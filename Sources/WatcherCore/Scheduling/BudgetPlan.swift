/// What the configured watches will ask of each provider per hour, against its budget, and the refresh
/// interval each watch will really get. `watcher check` prints it; a plan over budget is a warning that names
/// the watch to slow down or suggests adding a provider, never a silent slowdown.
public struct BudgetPlan: Sendable {
    /// One watch's demand on its primary provider.
    public struct Demand: Sendable, Equatable {
        /// The watch id (or `tip <chain>` / `health` for implicit work).
        public var watch: String
        /// Requests per hour.
        public var requestsPerHour: Double
        /// How it was counted, for humans.
        public var detail: String
        /// The interval asked for.
        public var every: Duration?
        /// The interval it will get once the budget is shared out.
        public var effectiveEvery: Duration?
    }

    /// One provider's line.
    public struct Line: Sendable {
        /// The provider id.
        public var provider: String
        /// Requests per hour its rate limit allows.
        public var budgetPerHour: Double
        /// The watches' demand.
        public var demands: [Demand]
        /// Total demand per hour.
        public var neededPerHour: Double { demands.reduce(0) { $0 + $1.requestsPerHour } }
        /// Whether the demand exceeds the budget.
        public var isOverBudget: Bool { neededPerHour > budgetPerHour }
    }

    /// One line per provider, in config order.
    public var lines: [Line]
    /// Over-budget warnings, each naming a watch to slow down and a remedy.
    public var warnings: [String]

    /// Plans `config`.
    /// - Parameters:
    ///   - config: the validated config.
    ///   - blocksPerHour: new blocks expected per hour (6 on Bitcoin).
    ///   - healthInterval: how often status-capable providers are probed.
    public init(config: WatcherConfig, blocksPerHour: Double = 6, healthInterval: Duration = .seconds(300)) {
        var demands: [String: [Demand]] = [:]
        func add(_ provider: String?, _ demand: Demand) {
            guard let provider else { return }
            demands[provider, default: []].append(demand)
        }
        func perHour(_ every: Duration) -> Double { 3600 / max(every.seconds, 0.001) }
        func tipCost(_ provider: String?) -> Int {
            provider.flatMap { config.provider($0) }?.plugin.entry.descriptor.requestsPerTip ?? 1
        }
        let watches = config.watches
        for watch in watches {
            let primary = watch.providers.first
            switch watch.kind {
            case .blocks:
                add(
                    primary,
                    Demand(
                        watch: watch.id,
                        requestsPerHour: perHour(watch.every) * Double(tipCost(primary)) + blocksPerHour,
                        detail: "tip every \(watch.every.configText)"
                            + (tipCost(primary) > 1 ? " (\(tipCost(primary)) requests each)" : "")
                            + " + ~\(Int(blocksPerHour)) block headers",
                        every: watch.every
                    )
                )
            case .address:
                let count = watch.addresses.count
                let batch = primary.flatMap { config.provider($0) }.flatMap(\.batchSize)
                let perRound = batch.map { (count + $0 - 1) / $0 } ?? count
                let how =
                    batch != nil ? "\(count) addresses in \(perRound) batch request(s)" : "\(count) address request(s)"
                add(
                    primary,
                    Demand(
                        watch: watch.id,
                        requestsPerHour: Double(perRound) * perHour(watch.every),
                        detail: "\(how) every \(watch.every.configText), plus history when a balance changes",
                        every: watch.every
                    )
                )
            case .tx:
                add(
                    primary,
                    Demand(
                        watch: watch.id,
                        requestsPerHour: perHour(watch.every),
                        detail: "1 request every \(watch.every.configText) until confirmed",
                        every: watch.every
                    )
                )
            case .price:
                add(
                    primary,
                    Demand(
                        watch: watch.id,
                        requestsPerHour: perHour(watch.every),
                        detail: "1 quote request every \(watch.every.configText)",
                        every: watch.every
                    )
                )
            }
        }
        // A chain followed without a blocks watch still needs its tip for confirmations.
        let chains = Set(watches.filter { $0.kind == .address || $0.kind == .tx }.map(\.chain))
        for chain in chains.sorted() where !watches.contains(where: { $0.kind == .blocks && $0.chain == chain }) {
            let followers = watches.filter { $0.chain == chain && $0.kind != .price }
            guard let every = followers.map(\.every).min() else { continue }
            let primary = followers.first?.providers.first
            add(
                primary,
                Demand(
                    watch: "tip \(chain)",
                    requestsPerHour: perHour(every) * Double(tipCost(primary)),
                    detail: "tip every \(every.configText)",
                    every: every
                )
            )
        }
        for provider in config.providers where provider.capabilities.contains("status") && demands[provider.id] != nil {
            add(
                provider.id,
                Demand(
                    watch: "health",
                    requestsPerHour: perHour(healthInterval),
                    detail: "sync-state probe every \(healthInterval.configText)"
                )
            )
        }
        var lines: [Line] = []
        var warnings: [String] = []
        for provider in config.providers {
            var line = Line(
                provider: provider.id,
                budgetPerHour: provider.rateLimit.requestsPerHour,
                demands: demands[provider.id] ?? []
            )
            let factor = max(1, line.neededPerHour / line.budgetPerHour)
            for index in line.demands.indices {
                line.demands[index].effectiveEvery = line.demands[index].every.map { $0 * factor }
            }
            if line.isOverBudget,
                let heaviest = line.demands.filter({ $0.every != nil }).max(by: {
                    $0.requestsPerHour < $1.requestsPerHour
                })
            {
                let slower = (heaviest.every ?? .seconds(60)) * factor
                warnings.append(
                    "provider \(provider.id): the watches need \(Int(line.neededPerHour.rounded())) requests/h but its "
                        + "budget is \(Int(line.budgetPerHour)) requests/h (\(provider.rateLimit.shortText)); slow watch "
                        + "\"\(heaviest.watch)\" down from every \(heaviest.every?.configText ?? "?") to at least "
                        + "\(Self.roundedUp(slower).configText), or add another provider to its list"
                )
            }
            lines.append(line)
        }
        self.lines = lines
        self.warnings = warnings
    }

    /// `d` rounded up to a whole second (to a whole minute past 10 minutes).
    static func roundedUp(_ d: Duration) -> Duration {
        let seconds = d.seconds.rounded(.up)
        if seconds > 600 { return .seconds(Int64((seconds / 60).rounded(.up) * 60)) }
        return .seconds(Int64(seconds))
    }

    /// The plan as text for `watcher check`.
    public var text: String {
        var out = ["request budget plan (per hour):"]
        for line in lines {
            let share =
                line.budgetPerHour.isFinite
                ? " (\(Int((line.neededPerHour / line.budgetPerHour * 100).rounded()))%)" : ""
            let budget = line.budgetPerHour.isFinite ? "\(Int(line.budgetPerHour))" : "unlimited"
            out.append("  \(line.provider): needs \(Int(line.neededPerHour.rounded())) of \(budget)\(share)")
            for demand in line.demands {
                var row = "    \(demand.watch): \(Int(demand.requestsPerHour.rounded()))/h — \(demand.detail)"
                if let every = demand.every, let effective = demand.effectiveEvery, effective > every {
                    row += "; will refresh every \(Self.roundedUp(effective).configText)"
                }
                out.append(row)
            }
        }
        out += warnings.map { "warning: \($0)" }
        return out.joined(separator: "\n")
    }
}

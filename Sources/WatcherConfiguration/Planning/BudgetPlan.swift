import WatcherCore

/// What the planned jobs (``JobPlan``) will ask of each provider per hour, against its budget, and the refresh
/// interval each watch will really get. `watcher check` prints it; a plan over budget is a warning that names
/// the watch to slow down or suggests adding a provider, never a silent slowdown.
public struct BudgetPlan: Sendable {
    /// One watch's demand on its primary provider.
    public struct Demand: Sendable, Equatable {
        /// The job's name, e.g. `watch wallet`, `tip btc`, `health bb`.
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

    /// Plans `config` with the engine's default settings.
    public init(config: WatcherConfig) {
        self.init(plan: JobPlan(config: config), config: config)
    }

    /// What a job asks of a provider beside its primary (`agree` above 1).
    static func alsoAsked(_ work: JobPlan.Work) -> String {
        if case .chain = work { return "its tip, for the agreed tip" }
        if case .tx = work { return "a second opinion: the transaction once per block until settled" }
        if case .price = work { return "its quotes every round, for the median" }
        return "a second opinion: the watch's summaries once per block"
    }

    /// The budget view of `plan`: each job's demand on its primary provider.
    public init(plan: JobPlan, config: WatcherConfig) {
        var demands: [String: [Demand]] = [:]
        for job in plan.jobs {
            guard let primary = job.providers.first else { continue }
            let scales: Bool
            switch job.work {
            case .health, .recovery, .accounts, .push: scales = false
            default: scales = true
            }
            demands[primary, default: []].append(
                Demand(
                    watch: job.name,
                    requestsPerHour: job.requestsPerHour,
                    detail: job.detail,
                    every: scales && job.requestsPerHour > 0 ? job.every : nil
                )
            )
            for (id, perHour) in job.alsoAsks.sorted(by: { $0.key < $1.key }) {
                demands[id, default: []].append(
                    Demand(watch: job.name, requestsPerHour: perHour, detail: Self.alsoAsked(job.work), every: nil)
                )
            }
        }
        var lines: [Line] = []
        var warnings: [String] = []
        for provider in config.providers {
            var line = Line(
                provider: provider.id,
                budgetPerHour: provider.rateLimit.withSafetyMargin.requestsPerHour,
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
                        + "budget is \(Int(line.budgetPerHour)) requests/h (\(provider.rateLimit.shortText)); slow "
                        + "\(Self.named(heaviest.watch)) down from every \(heaviest.every?.configText ?? "?") to at least "
                        + "\(Self.roundedUp(slower).configText), or add another provider to its list"
                )
            }
            lines.append(line)
        }
        self.lines = lines
        self.warnings = warnings
    }

    /// `watch "id"` for a watch's job, the quoted job name otherwise.
    static func named(_ job: String) -> String {
        job.hasPrefix("watch ") ? "watch \"\(job.dropFirst(6))\"" : "\"\(job)\""
    }

    /// `d` rounded up to a whole second (to a whole minute past 10 minutes).
    static func roundedUp(_ d: Duration) -> Duration {
        let seconds = d.seconds.rounded(.up)
        if seconds > 600 { return .seconds(Int64((seconds / 60).rounded(.up) * 60)) }
        return .seconds(Int64(seconds))
    }

    /// The plan as text for `watcher check`.
    public var text: String {
        var out = ["jobs and request budget plan (per hour, on each job's first provider):"]
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

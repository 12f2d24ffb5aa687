import WatcherConfiguration
import WatcherCore
import WatcherStorage

/// What the jobs of an engine share, and what may outlive one engine: each chain's block wake-up, push state and
/// address book. A reload that changes the watches but not the push connections runs the push jobs on, in an engine
/// of their own (``Engine/JobSelection/push``), and the other jobs in a new engine over the same state; the push
/// connection then follows the new watches' addresses through the shared book (it re-subscribes when the set
/// changes) instead of reconnecting.
package final class EngineShared: Sendable {
    /// Per chain: rung by the chain job after each new tip.
    let wakeups: [String: BlockWakeup]
    /// Per chain with a push job: the connection's state, which the tip job follows.
    let pushStates: [String: PushState]
    /// Per chain: the followed addresses.
    let books: [String: AddressBookSource]
    /// The chains it covers.
    package let chains: Set<String>
    /// The push jobs it was made for: chain and providers.
    package let pushJobs: [PushJob]

    /// A push job as far as its connection goes: the chain and the providers (not the number of addresses, which
    /// the connection follows as it changes).
    package struct PushJob: Sendable, Hashable {
        /// The chain.
        package var chain: String
        /// The providers, the first one connected.
        package var providers: [String]
    }

    /// The state for the jobs of `plan` over `config`.
    package init(config: WatcherConfig, plan: JobPlan, store: Store, settings: Engine.Settings) {
        let chains = Set(config.watches.map(\.chain)).union(config.providers.filter(\.servesChain).map(\.chain))
        self.chains = chains
        wakeups = Dictionary(uniqueKeysWithValues: Set(config.watches.map(\.chain)).map { ($0, BlockWakeup()) })
        var pushStates: [String: PushState] = [:]
        for case .push(let chain, _) in plan.jobs.map(\.work) { pushStates[chain] = PushState() }
        self.pushStates = pushStates
        pushJobs = Self.pushJobs(plan)
        books = Dictionary(
            uniqueKeysWithValues: chains.map {
                ($0, AddressBookSource(chain: $0, watches: config.watches, store: store, settings: settings))
            }
        )
    }

    /// The push jobs of `plan`, in plan order.
    package static func pushJobs(_ plan: JobPlan) -> [PushJob] {
        plan.jobs.compactMap { job in
            guard case .push(let chain, _) = job.work else { return nil }
            return PushJob(chain: chain, providers: job.providers)
        }
    }

    /// Whether an engine for `config` can run over this state with the push connections it has: the same push jobs
    /// and the same chains with watches (each has its wake-up).
    package func fits(_ config: WatcherConfig, plan: JobPlan) -> Bool {
        Self.pushJobs(plan) == pushJobs && Set(config.watches.map(\.chain)) == Set(wakeups.keys)
            && Set(config.watches.map(\.chain)).union(config.providers.filter(\.servesChain).map(\.chain)) == chains
    }

    /// Points every chain's book at `watches` (a reload).
    package func update(watches: [WatchConfig]) {
        for book in books.values { book.update(watches: watches) }
    }
}

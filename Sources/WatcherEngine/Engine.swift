import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherObservability
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// The watch engine: runs exactly the jobs of the config's ``JobPlan`` (what `watcher check` prints), each on a
/// fixed schedule, plus the recording of provider state changes. Every job is a thin driver around a pure reducer;
/// state changes and their events commit together in one LMDB write transaction.
package struct Engine: Service {
    /// Engine-wide settings.
    package struct Settings: Sendable {
        /// How often CLI-followed accounts are refreshed.
        package var accountsInterval: Duration
        /// Thresholds announced for CLI-followed accounts.
        package var accountThresholds: [Int]
        /// How often providers with a status endpoint are probed for sync state.
        package var healthInterval: Duration
        /// Blocks a CLI-followed account's transaction is followed past its highest threshold.
        package var accountReorgSafety: Int

        /// Creates settings.
        package init(
            accountsInterval: Duration = .seconds(60),
            accountThresholds: [Int] = [1, 3, 6],
            healthInterval: Duration = .seconds(300),
            accountReorgSafety: Int = 6
        ) {
            self.accountsInterval = accountsInterval
            self.accountThresholds = accountThresholds
            self.healthInterval = healthInterval
            self.accountReorgSafety = accountReorgSafety
        }

        /// The plan settings these imply.
        package var plan: JobPlan.Settings {
            JobPlan.Settings(accountsInterval: accountsInterval, healthInterval: healthInterval)
        }
    }

    /// Which of the plan's jobs an engine runs.
    package enum JobSelection: Sendable {
        /// Every job, and the recording of provider state changes.
        case all
        /// The push jobs only (their connections outlive a reload of the watches).
        case push
        /// Every job but the push jobs, and the recording of provider state changes.
        case allButPush

        func includes(_ job: JobPlan.Job) -> Bool {
            let isPush = if case .push = job.work { true } else { false }
            switch self {
            case .all: return true
            case .push: return isPush
            case .allButPush: return !isPush
            }
        }
    }

    let config: WatcherConfig
    let context: EngineContext
    let transitions: AsyncStream<ProviderTransition>
    let settings: Settings
    /// The jobs it runs.
    package let plan: JobPlan
    /// Which of them.
    let selection: JobSelection
    /// The state its jobs share (with an engine running the other jobs, across a reload).
    package let shared: EngineShared
    /// Per chain: rung by the chain job after each new tip; polled address watches check at once.
    var wakeups: [String: BlockWakeup] { shared.wakeups }
    /// Per chain with a push job: the connection's state, which the tip job follows.
    var pushStates: [String: PushState] { shared.pushStates }
    /// Per chain: the followed addresses, built once from the config and merged with the CLI's accounts.
    var books: [String: AddressBookSource] { shared.books }
    /// Per chain: the `wallet` watches.
    let wallets: [String: WalletBook]
    /// The jobs that ask no provider (payment requests).
    let localJobs: [any LocalJob]

    /// Creates the engine.
    /// - Parameters:
    ///   - config: the validated config.
    ///   - context: store, scheduler, providers, signal.
    ///   - transitions: the scheduler's provider state changes, turned into `provider.*` events.
    ///   - settings: intervals.
    ///   - selection: which of the plan's jobs it runs.
    ///   - shared: the state of another engine over the same store to share (its ``EngineShared/fits(_:plan:)``
    ///     must hold); `nil`: its own.
    ///   - localJobs: jobs that ask no provider, run beside the jobs that are not push jobs.
    package init(
        config: WatcherConfig,
        context: EngineContext,
        transitions: AsyncStream<ProviderTransition>,
        settings: Settings = .init(),
        selection: JobSelection = .all,
        shared: EngineShared? = nil,
        localJobs: [any LocalJob] = []
    ) {
        self.config = config
        self.context = context
        self.transitions = transitions
        self.settings = settings
        self.selection = selection
        let plan = JobPlan(config: config, settings: settings.plan)
        self.plan = plan
        self.shared = shared ?? EngineShared(config: config, plan: plan, store: context.store, settings: settings)
        let chains = Set(config.watches.map(\.chain)).union(config.providers.filter(\.servesChain).map(\.chain))
        self.wallets = Dictionary(
            uniqueKeysWithValues: chains.map { ($0, WalletBook.load(chain: $0, watches: config.watches)) }
        )
        self.localJobs = localJobs
    }

    /// Runs the jobs until cancelled or shut down.
    /// - Throws: ``ChainMismatch`` when a job finds a provider on another chain than its config's: the engine stops
    ///   (every other job is cancelled), and with it the daemon.
    package func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for job in plan.jobs where selection.includes(job) {
                    let body = runner(for: job)
                    let wake = wakesOnBlock(job)
                    group.addTask { try await loop(job.name, every: job.every, wake: wake, body) }
                    if let display = displayRunner(for: job) {
                        group.addTask {
                            try await loop("\(job.name) display", every: DisplayJob.displayEvery, display)
                        }
                    }
                    if let mempool = mempoolRunner(for: job) {
                        group.addTask {
                            try await loop("\(job.name) mempool", every: job.every, wake: mempool.wake, mempool.body)
                        }
                    }
                }
                if selection != .push {
                    group.addTask { await recordTransitions() }
                    for job in localJobs {
                        group.addTask { try await loop(job.name, every: job.every, job.round) }
                    }
                }
                // The first failure ends the engine (leaving the group cancels the other jobs); `waitForAll` would
                // wait for jobs that never end.
                while try await group.next() != nil {}
            }
        }
    }

    /// The wake-up that starts a round of `job` early: polled address watches check at once what a new block
    /// could have changed, and a chain's tip job polls at once when its push connection reports a block.
    func wakesOnBlock(_ job: JobPlan.Job) -> BlockWakeup? {
        switch job.work {
        case .addresses(let chain, _, .poll), .wallet(let chain, _, .poll), .wallet(let chain, _, .xpub): wakeups[chain]
        case .chain(let chain, _, _, _, _, _): pushStates[chain]?.tipWake
        case .fee(let chain): wakeups[chain]
        default: nil
        }
    }

    /// Runs `body` on a fixed schedule (``RoundSchedule``: start times `every` apart, a failed round retried sooner)
    /// until cancelled; a ring of `wake` starts a round at once and the schedule anew. Failures are logged when they
    /// change, not on every round; a ``ChainMismatch`` is thrown (no round can fix it).
    func loop(
        _ name: String,
        every: Duration,
        wake: BlockWakeup? = nil,
        _ body: @Sendable () async throws -> Void
    ) async throws {
        var lastError: String?
        let time = context.time
        var schedule = RoundSchedule(every: every, start: time.elapsed)
        while !Task.isCancelled {
            let seen = wake?.generation ?? 0
            var failed = false
            do {
                try await body()
                if lastError != nil {
                    context.logger.notice("\(name) is working again")
                    lastError = nil
                }
            } catch is CancellationError {
                return
            } catch  where Task.isCancelled {
                // A round cut short by a stop or a reload (which cancels the engine) is nobody's failure: what it
                // threw (a provider's "cancelled", a batch left unanswered) says nothing about the providers.
                return
            } catch let mismatch as ChainMismatch {
                context.logger.error("\(name) stopped: \(mismatch)")
                throw mismatch
            } catch {
                failed = true
                let text = "\(error)"
                if text != lastError {
                    context.logger.warning("\(name) failed: \(text)")
                    lastError = text
                }
            }
            schedule.finished(failed: failed, now: time.elapsed)
            guard let wake else {
                try? await time.sleep(until: schedule.next)
                continue
            }
            if await Self.sleep(until: schedule.next, or: wake, since: seen, time: time) {
                schedule.woken(now: time.elapsed)
            }
        }
    }

    /// Sleeps until `deadline` or a new tip, whichever comes first; `true` when the tip came first.
    static func sleep(
        until deadline: Duration,
        or wake: BlockWakeup,
        since seen: UInt64,
        time: TimeSource
    ) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                try? await time.sleep(until: deadline)
                return false
            }
            group.addTask {
                await wake.wait(since: seen)
                return true
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first && !Task.isCancelled
        }
    }

    /// Turns provider state changes into `provider.degraded` / `provider.recovered` events.
    func recordTransitions() async {
        for await transition in transitions {
            let builder = context.events
            let stamp = "\(Int64(builder.now().timeIntervalSince1970 * 1000))"
            _ = try? await context.commit { _ in
                [
                    builder.make(
                        type: "provider.\(transition.kind.rawValue)",
                        fact: [transition.provider, transition.kind.rawValue, stamp],
                        source: "scheduler",
                        subject: transition.provider,
                        data: [
                            .init("provider", .string(transition.provider)),
                            .init("reason", .string(transition.reason)),
                        ]
                    )
                ]
            }
        }
    }
}

extension Engine: CustomStringConvertible {
    /// What service-lifecycle logs of the service. The default would print the whole config, every followed
    /// address included (a 43 MB string at 100,000 addresses).
    package var description: String { "Engine(\(plan.jobs.filter(selection.includes).count) jobs)" }
}

import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import WatcherCore
import WatcherStorage

/// The watch engine: one polling loop per watch (plus followed accounts, an implicit tip tracker where a chain
/// has no `blocks` watch, provider health probes, and provider state events). Each loop turns observations into
/// state changes and events committed together in one LMDB write transaction.
public struct Engine: Service {
    /// Engine-wide settings.
    public struct Settings: Sendable {
        /// How often CLI-followed accounts are refreshed.
        public var accountsInterval: Duration
        /// Thresholds announced for CLI-followed accounts.
        public var accountThresholds: [Int]
        /// How often providers with a status endpoint are probed for sync state.
        public var healthInterval: Duration

        /// Creates settings.
        public init(
            accountsInterval: Duration = .seconds(60),
            accountThresholds: [Int] = [1, 3, 6],
            healthInterval: Duration = .seconds(300)
        ) {
            self.accountsInterval = accountsInterval
            self.accountThresholds = accountThresholds
            self.healthInterval = healthInterval
        }
    }

    let config: WatcherConfig
    let context: EngineContext
    let transitions: AsyncStream<ProviderTransition>
    let settings: Settings

    /// Creates the engine.
    /// - Parameters:
    ///   - config: the validated config.
    ///   - context: store, scheduler, providers, signal.
    ///   - transitions: the scheduler's provider state changes, turned into `provider.*` events.
    ///   - settings: intervals.
    public init(
        config: WatcherConfig,
        context: EngineContext,
        transitions: AsyncStream<ProviderTransition>,
        settings: Settings = .init()
    ) {
        self.config = config
        self.context = context
        self.transitions = transitions
        self.settings = settings
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                for job in jobs() {
                    group.addTask { await loop(job.name, every: job.every, job.body) }
                }
                group.addTask { await recordTransitions() }
                await group.waitForAll()
            }
        }
    }

    struct Job: Sendable {
        let name: String
        let every: Duration
        let body: @Sendable () async throws -> Void
    }

    /// The loops this config needs.
    func jobs() -> [Job] {
        var jobs: [Job] = []
        let watches = config.watches
        let context = self.context
        let settings = self.settings
        let chainProviderIDs = config.providers.filter(\.servesChain).map(\.id)
        let chains = Set(watches.filter { $0.kind != .price }.map(\.chain)).union(
            config.providers.filter(\.servesChain).map(\.chain)
        )
        for chain in chains.sorted() {
            let book: @Sendable () throws -> AddressBook = {
                let accounts = try context.store.read { try $0.accounts(chain: chain) }
                return AddressBook.load(
                    chain: chain,
                    watches: watches,
                    accounts: accounts,
                    accountThresholds: settings.accountThresholds
                )
            }
            let addressProviders =
                watches.first { $0.kind == .address && $0.chain == chain }?.providers
                ?? config.providers.filter {
                    $0.servesChain && $0.chain == chain && $0.capabilities.contains("address")
                }.map(\.id)
            if let blocks = watches.first(where: { $0.kind == .blocks && $0.chain == chain }) {
                let tracker = BlockTracker(
                    chain: chain,
                    watchID: blocks.id,
                    providers: blocks.providers,
                    context: context,
                    maxBackfill: blocks.maxBackfill,
                    announce: true,
                    book: book
                )
                jobs.append(Job(name: "watch \(blocks.id)", every: blocks.every, body: tracker.poll))
            } else {
                let providers = addressProviders.isEmpty ? chainProviderIDs : addressProviders
                let hasTxWatch = watches.contains { $0.kind == .tx && $0.chain == chain }
                let tracker = BlockTracker(
                    chain: chain,
                    watchID: "tip-\(chain)",
                    providers: providers,
                    context: context,
                    maxBackfill: 0,
                    announce: false,
                    book: book
                )
                let every = watches.filter { $0.chain == chain }.map(\.every).min() ?? settings.accountsInterval
                jobs.append(
                    Job(name: "tip \(chain)", every: every) {
                        guard try hasTxWatch || !book().entries.isEmpty else { return }
                        try await tracker.poll()
                    }
                )
            }
            for watch in watches where watch.kind == .address && watch.chain == chain {
                let tracker = AddressTracker(chain: chain, providers: watch.providers, context: context)
                jobs.append(
                    Job(name: "watch \(watch.id)", every: watch.every) {
                        let all = try book()
                        try await tracker.poll(AddressBook(entries: all.entries.filter { $0.value.watch == watch.id }))
                    }
                )
            }
            if !addressProviders.isEmpty {
                let tracker = AddressTracker(chain: chain, providers: addressProviders, context: context)
                let lastRefresh = Mutex<ContinuousClock.Instant?>(nil)
                let refresh = settings.accountsInterval
                // Every 2 s a store read (no request) looks for accounts added by `watcher accounts add`; they are
                // polled at once, and every account is refreshed each `accountsInterval`.
                jobs.append(
                    Job(name: "accounts \(chain)", every: .seconds(2)) {
                        let all = try book()
                        let accounts = all.entries.filter { $0.value.watch == "accounts" }
                        guard !accounts.isEmpty else { return }
                        let now = ContinuousClock.now
                        let due = lastRefresh.withLock { last in last.map { now - $0 >= refresh } ?? true }
                        if due {
                            try await tracker.poll(AddressBook(entries: accounts))
                            lastRefresh.withLock { $0 = now }
                            return
                        }
                        let known = try context.store.read { txn in
                            Set(try txn.addressStates(chain: chain).filter { $0.summary != nil }.map(\.address))
                        }
                        let fresh = accounts.filter { !known.contains($0.key) }
                        if !fresh.isEmpty { try await tracker.poll(AddressBook(entries: fresh)) }
                    }
                )
            }
        }
        for watch in watches where watch.kind == .tx {
            let tracker = TxTracker(watch: watch, context: context)
            jobs.append(Job(name: "watch \(watch.id)", every: watch.every, body: tracker.poll))
        }
        for watch in watches where watch.kind == .price {
            let tracker = PriceTracker(watch: watch, context: context)
            jobs.append(Job(name: "watch \(watch.id)", every: watch.every, body: tracker.poll))
        }
        for provider in config.providers where provider.servesChain && provider.capabilities.contains("status") {
            let id = provider.id
            jobs.append(
                Job(name: "health \(id)", every: settings.healthInterval) {
                    let health = try await context.ask([id], .tip) { try await $0.health() }
                    context.logger.debug(
                        "health probe",
                        metadata: ["provider": "\(id)", "healthy": "\(health.isHealthy)"]
                    )
                    await context.scheduler.setHealth(id, healthy: health.isHealthy, reason: health.reason)
                }
            )
        }
        return jobs
    }

    /// Runs `body` every `every` until cancelled; failures are logged when they change, not on every round.
    func loop(_ name: String, every: Duration, _ body: @Sendable () async throws -> Void) async {
        var lastError: String?
        while !Task.isCancelled {
            do {
                try await body()
                if lastError != nil {
                    context.logger.notice("\(name) is working again")
                    lastError = nil
                }
            } catch is CancellationError {
                return
            } catch {
                let text = "\(error)"
                if text != lastError {
                    context.logger.warning("\(name) failed: \(text)")
                    lastError = text
                }
            }
            try? await Task.sleep(for: every)
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

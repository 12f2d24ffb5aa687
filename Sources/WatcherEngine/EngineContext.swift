import Foundation
import Logging
import WatcherCore
import WatcherEventLog
import WatcherObservability
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// What every tracker needs: the store, the scheduler, the providers, the event builder and the log signal.
package struct EngineContext: Sendable {
    /// The store.
    package var store: Store
    /// The scheduler every request goes through.
    package var scheduler: Scheduler<TimeSourceClock>
    /// Chain providers by id.
    package var chainProviders: [String: any ChainProvider]
    /// Price providers by id.
    package var priceProviders: [String: any PriceProvider]
    /// Wakes the delivery workers after appends.
    package var signal: LogSignal
    /// Builds envelopes.
    package var events: EventBuilder
    /// Logs.
    package var logger: Logger
    /// Headers kept per chain.
    package var keepHeaders: Int
    /// Time budget of one provider job, waiting included.
    package var requestBudget: Duration
    /// Counts emitted events.
    package var metrics: WatcherMetrics
    /// The engine's clocks: job schedules and backoffs wait on it, event times are stamped from it.
    package var time: TimeSource

    /// Creates a context.
    package init(
        store: Store,
        scheduler: Scheduler<TimeSourceClock>,
        chainProviders: [String: any ChainProvider],
        priceProviders: [String: any PriceProvider],
        signal: LogSignal,
        events: EventBuilder? = nil,
        logger: Logger,
        keepHeaders: Int = 100,
        requestBudget: Duration = .seconds(120),
        metrics: WatcherMetrics = .none,
        time: TimeSource
    ) {
        self.store = store
        self.scheduler = scheduler
        self.chainProviders = chainProviders
        self.priceProviders = priceProviders
        self.signal = signal
        self.events = events ?? EventBuilder(now: { time.now() })
        self.logger = logger
        self.keepHeaders = keepHeaders
        self.requestBudget = requestBudget
        self.metrics = metrics
        self.time = time
    }

    /// Those of `ids` that serve every one of `capabilities`, in order (an unknown id serves nothing).
    func providers(_ ids: [String], serving capabilities: ChainCapabilities) -> [String] {
        ids.filter { chainProviders[$0]?.capabilities.isSuperset(of: capabilities) ?? false }
    }

    /// The chain provider `id`.
    func chain(_ id: String) throws -> any ChainProvider {
        guard let provider = chainProviders[id] else {
            throw ProviderError.unsupported(provider: id, operation: "chain data")
        }
        return provider
    }

    /// Runs a chain request through the scheduler, failing over along `providerIDs`; `cost` is the HTTP requests the
    /// operation makes, so the rate limiter counts them all.
    func ask<T: Sendable>(
        _ providerIDs: [String],
        _ priority: RequestPriority,
        cost: Int = 1,
        _ operation: @escaping @Sendable (any ChainProvider) async throws -> T
    ) async throws -> T {
        let providers = chainProviders
        return try await scheduler.perform(
            on: providerIDs,
            priority: priority,
            budget: requestBudget,
            cost: { _ in cost }
        ) { id in
            guard let provider = providers[id] else {
                throw ProviderError.unsupported(provider: id, operation: "chain data")
            }
            return try await operation(provider)
        }
    }

    /// The provider's tip through the scheduler, counting every HTTP request it makes.
    func tip(_ providerIDs: [String]) async throws -> BlockRef {
        let providers = chainProviders
        let scheduler = self.scheduler
        return try await scheduler.perform(
            on: providerIDs,
            priority: .tip,
            budget: requestBudget,
            cost: { providers[$0]?.requestsPerTip ?? 1 }
        ) { id in
            guard let provider = providers[id] else {
                throw ProviderError.unsupported(provider: id, operation: "chain data")
            }
            let tip = try await provider.tip()
            scheduler.noteTip(id, height: tip.height)
            return tip
        }
    }

    /// The event log the engine appends to.
    package var log: EventLog { EventLog(store: store, signal: signal) }

    /// Commits `body`'s state changes and the events it returns in one write transaction, then wakes the sinks.
    /// - Returns: the events actually appended (facts already logged are refused).
    @discardableResult
    func commit(_ body: @escaping @Sendable (StoreTransaction<WriteTransaction>) throws -> [NewEvent]) async throws
        -> [NewEvent]
    {
        let appended = try await log.commit(body)
        for event in appended { metrics.eventEmitted(event.type) }
        return appended
    }
}

import Logging
import WatcherConfiguration
import WatcherCore
import WatcherDelivery
import WatcherEngine
import WatcherEventLog
import WatcherObservability
import WatcherRequests
import WatcherScheduler
import WatcherSinks
import WatcherStorage

/// Builds the parts of the runtime from a validated config, each on its own so that a reload rebuilds only what
/// changed: the providers and their scheduler, the engine, the sinks and their delivery. What outlives every reload
/// (the store, the HTTP client, the health board, the log signal, the metrics) is passed in once.
struct RuntimeFactory: Sendable {
    /// The providers of a config and the scheduler that paces them.
    struct Providers: Sendable {
        let chain: [String: any ChainProvider]
        let price: [String: any PriceProvider]
        let scheduler: Scheduler<TimeSourceClock>
    }

    /// The sinks of a config and the delivery service that feeds them from their persisted cursors.
    struct Delivery: Sendable {
        let sinks: [any Sink]
        let service: DeliveryService
    }

    let store: Store
    let context: PluginContext
    let logger: Logger
    let metrics: WatcherMetrics
    let board: ProviderHealthBoard
    let relay: TransitionRelay
    let signal: LogSignal
    let engineSettings: Engine.Settings
    /// The clocks every part reads (``TimeSource/system`` in the daemon).
    var time: TimeSource = .system

    /// Builds every provider of `config` and a scheduler with their rate limits.
    func providers(_ config: WatcherConfig) throws -> Providers {
        var chain: [String: any ChainProvider] = [:]
        var price: [String: any PriceProvider] = [:]
        for provider in config.providers {
            var metered = context
            metered.http = MeteredFetcher(context.http, role: "provider", id: provider.id, metrics: metrics, time: time)
            if let made = try provider.plugin.makeChainProvider(context: metered) { chain[provider.id] = made }
            if let made = try provider.plugin.makePriceProvider(context: metered) { price[provider.id] = made }
        }
        let relay = self.relay
        let scheduler = Scheduler(
            limits: Dictionary(config.providers.map { ($0.id, $0.rateLimit) }) { first, _ in first },
            clock: TimeSourceClock(time),
            logger: logger,
            onTransition: { relay.yield($0) },
            metrics: metrics,
            board: board
        )
        return Providers(chain: chain, price: price, scheduler: scheduler)
    }

    /// The engines of `config`'s watches over `providers`: the push jobs in one of their own (`nil` without push
    /// jobs), so that their connections can outlive a reload of the other jobs, and the rest, sharing `shared` (a new
    /// state when `nil`).
    func engines(
        _ config: WatcherConfig,
        _ providers: Providers,
        shared: EngineShared? = nil
    ) -> (push: Engine?, main: Engine) {
        let main = engine(config, providers, selection: .allButPush, shared: shared)
        let push =
            main.shared.pushJobs.isEmpty
            ? nil : engine(config, providers, selection: .push, shared: main.shared, transitions: .finished)
        return (push, main)
    }

    /// One engine of `config`'s watches over `providers`.
    func engine(
        _ config: WatcherConfig,
        _ providers: Providers,
        selection: Engine.JobSelection,
        shared: EngineShared?,
        transitions: AsyncStream<ProviderTransition>? = nil
    ) -> Engine {
        let context = EngineContext(
            store: store,
            scheduler: providers.scheduler,
            chainProviders: providers.chain,
            priceProviders: providers.price,
            signal: signal,
            logger: logger,
            keepHeaders: config.storage.keepHeaders,
            metrics: metrics,
            time: time
        )
        return Engine(
            config: config,
            context: context,
            transitions: transitions ?? relay.stream(),
            settings: engineSettings,
            selection: selection,
            shared: shared,
            localJobs: selection == .push ? [] : RequestJob.jobs(config, context: context)
        )
    }

    /// Builds every sink of `config` and the delivery service; each sink resumes from its persisted cursor.
    func delivery(_ config: WatcherConfig) throws -> Delivery {
        let sinks = try config.sinks.map { sink in
            var metered = context
            metered.http = MeteredFetcher(context.http, role: "sink", id: sink.id, metrics: metrics, time: time)
            return try sink.plugin.makeSink(context: metered)
        }
        let service = DeliveryService(
            store: store,
            signal: signal,
            routes: zip(config.sinks, sinks).map(DeliveryService.Route.init(config:sink:)),
            retention: config.storage.eventRetention,
            logger: logger,
            time: time,
            metrics: metrics
        )
        return Delivery(sinks: sinks, service: service)
    }
}

extension AsyncStream {
    /// A stream that has ended: for an engine that records no provider state changes.
    static var finished: AsyncStream<Element> { AsyncStream { $0.finish() } }
}

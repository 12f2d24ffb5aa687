import AsyncHTTPClient
import Logging
import ServiceLifecycle
import WatcherConfiguration
import WatcherCore
import WatcherDelivery
import WatcherEngine
import WatcherEventLog
import WatcherHTTP
import WatcherObservability
import WatcherScheduler
import WatcherSinks
import WatcherStorage

/// Builds the providers, sinks, scheduler and engine of a validated config, and the services that run them.
struct WatcherRuntime {
    let chainProviders: [String: any ChainProvider]
    let priceProviders: [String: any PriceProvider]
    let sinks: [any Sink]
    let scheduler: Scheduler<ContinuousClock>
    let signal: LogSignal
    let engine: Engine
    let delivery: DeliveryService
    let board: ProviderHealthBoard
    let metrics: WatcherMetrics
    /// In start order; the group stops them in reverse: the engine first, then delivery (workers finish while the
    /// store and HTTP client are still open), then the scheduler.
    let services: [any Service]

    init(
        config: WatcherConfig,
        store: Store,
        http client: HTTPClient,
        logger: Logger,
        metrics: WatcherMetrics = .none,
        checkInterval: Duration = .seconds(30),
        engineSettings: Engine.Settings? = nil,
        time: TimeSource = .system
    ) throws {
        self.metrics = metrics
        let context = PluginContext(
            http: HTTPTransport(client: client, userAgent: WatcherVersion.userAgent),
            logger: logger,
            dataDirectory: config.storage.path
        )
        var chain: [String: any ChainProvider] = [:]
        var price: [String: any PriceProvider] = [:]
        for provider in config.providers {
            var metered = context
            metered.http = MeteredFetcher(context.http, role: "provider", id: provider.id, metrics: metrics, time: time)
            if let made = try provider.plugin.makeChainProvider(context: metered) { chain[provider.id] = made }
            if let made = try provider.plugin.makePriceProvider(context: metered) { price[provider.id] = made }
        }
        chainProviders = chain
        priceProviders = price
        sinks = try config.sinks.map { sink in
            var metered = context
            metered.http = MeteredFetcher(context.http, role: "sink", id: sink.id, metrics: metrics, time: time)
            return try sink.plugin.makeSink(context: metered)
        }

        board = ProviderHealthBoard(providers: config.providers.map(\.id), time: time)
        let (transitions, transitionSink) = AsyncStream<ProviderTransition>.makeStream()
        scheduler = Scheduler(
            limits: Dictionary(config.providers.map { ($0.id, $0.rateLimit) }) { first, _ in first },
            clock: ContinuousClock(),
            logger: logger,
            onTransition: { transitionSink.yield($0) },
            metrics: metrics,
            board: board
        )
        signal = LogSignal()
        engine = Engine(
            config: config,
            context: EngineContext(
                store: store,
                scheduler: scheduler,
                chainProviders: chain,
                priceProviders: price,
                signal: signal,
                logger: logger,
                keepHeaders: config.storage.keepHeaders,
                metrics: metrics,
                time: time
            ),
            transitions: transitions,
            settings: engineSettings ?? Engine.Settings(healthInterval: checkInterval)
        )
        delivery = DeliveryService(
            store: store,
            signal: signal,
            routes: zip(config.sinks, sinks).map(DeliveryService.Route.init(config:sink:)),
            retention: config.storage.eventRetention,
            logger: logger,
            time: time,
            metrics: metrics
        )
        services = [scheduler, delivery, engine]
    }
}

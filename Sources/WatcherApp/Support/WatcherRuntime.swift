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

/// Builds the providers, sinks, scheduler and engine of a validated config, and the services that run them: the
/// first generation of a daemon (a reload builds its replacements with the same ``factory``).
struct WatcherRuntime {
    let factory: RuntimeFactory
    let providers: RuntimeFactory.Providers
    /// Every job but the push jobs.
    let engine: Engine
    /// The push jobs, in an engine of their own over the same state; `nil` without push jobs.
    let pushEngine: Engine?
    let delivery: RuntimeFactory.Delivery

    var chainProviders: [String: any ChainProvider] { providers.chain }
    var priceProviders: [String: any PriceProvider] { providers.price }
    var sinks: [any Sink] { delivery.sinks }
    var scheduler: Scheduler<TimeSourceClock> { providers.scheduler }
    var signal: LogSignal { factory.signal }
    var board: ProviderHealthBoard { factory.board }
    var metrics: WatcherMetrics { factory.metrics }

    /// In start order; the group stops them in reverse: the engine first, then delivery (workers finish while the
    /// store and HTTP client are still open), then the scheduler.
    var services: [any Service] {
        [providers.scheduler, delivery.service] + (pushEngine.map { [$0] } ?? []) + [engine]
    }

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
        factory = RuntimeFactory(
            store: store,
            context: PluginContext(
                http: HTTPTransport(client: client, userAgent: WatcherVersion.userAgent),
                logger: logger,
                dataDirectory: config.storage.path,
                time: time
            ),
            logger: logger,
            metrics: metrics,
            board: ProviderHealthBoard(providers: config.providers.map(\.id), time: time),
            relay: TransitionRelay(),
            signal: LogSignal(),
            engineSettings: engineSettings ?? Engine.Settings(healthInterval: checkInterval),
            time: time
        )
        providers = try factory.providers(config)
        delivery = try factory.delivery(config)
        (pushEngine, engine) = factory.engines(config, providers)
    }
}

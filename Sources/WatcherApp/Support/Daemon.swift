import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import UnixSignals
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherEventLog
import WatcherHTTP
import WatcherObservability
import WatcherRequests
import WatcherStatus
import WatcherStorage

/// Builds and runs the daemon's `ServiceGroup` (what `watcher run` and `watcher demo` share).
struct Daemon {
    /// The validated config.
    var config: WatcherConfig
    /// Where the status server listens, if anywhere.
    var statusAddress: (host: String, port: Int)?
    /// The bearer token the status server's writes need (`--http-token`).
    var httpToken: String?
    /// How many `/api/events/stream` clients the status server serves at once (`--http-stream-clients`).
    var streamClients = 64
    /// Called with the web UI's URL once the status server listens.
    var onListening: (@Sendable (String) -> Void)?
    /// How often providers are probed.
    var checkInterval: Duration = .seconds(30)
    /// Services started last and stopped first (the demo's traffic driver).
    var extraServices: [any Service] = []
    /// Stop by itself after this long.
    var duration: Duration?
    /// Loads and checks the config file again on SIGHUP; `nil`: nothing to reload (`watcher demo`).
    var reload: (@Sendable () throws(ConfigError) -> WatcherConfig)?

    func run(logger: Logger) async throws {
        for warning in config.warnings { logger.warning("\(warning)") }
        let existed = FileManager.default.fileExists(atPath: config.storage.path)
        let lock: DataDirectoryLock
        do {
            lock = try DataDirectoryLock(directory: config.storage.path)
        } catch let error as StorageError {
            throw CommandFailure.runtime("\(error)")
        } catch {
            throw CommandFailure.runtime(
                "cannot use storage.path \(config.storage.path): \(error)"
            )
        }
        defer { withExtendedLifetime(lock) {} }
        let store: Store
        do {
            store = try StoreAccess.writer(config, logger: logger)
        } catch {
            // A directory this run created for a store it could not open is removed again (the lock file is all
            // it holds), so that a failed start leaves nothing behind.
            if !existed { DataDirectoryLock.removeUnused(directory: config.storage.path) }
            throw error
        }
        let httpClient = HTTPClientService(logger: logger)
        let registry = PrometheusCollectorRegistry()
        let metrics = WatcherMetrics(factory: PrometheusMetricsFactory(registry: registry))
        // Every operation's series from the start, at 0: an alert on `increase(...)` sees the first failure.
        for operation in StoreOperation.allCases { metrics.storeErrors(operation.rawValue, count: 0) }
        store.health.observe { metrics.storeErrors($0.rawValue) }
        let runtime: WatcherRuntime
        do {
            runtime = try WatcherRuntime(
                config: config,
                store: store,
                http: httpClient.client,
                logger: logger,
                metrics: metrics,
                checkInterval: checkInterval
            )
        } catch {
            await httpClient.shutdown()
            await store.close()
            throw CommandFailure.runtime("\(error)")
        }
        let live = LiveState(
            ProviderSession(
                config: config,
                chainProviders: runtime.chainProviders,
                priceProviders: runtime.priceProviders,
                scheduler: runtime.scheduler
            )
        )
        let record = ReloadRecord()
        let notifier = ServiceNotifier()
        // Trapped before the group starts: a SIGHUP from now on waits in the sequence until the supervisor reads it.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let supervisor = RuntimeSupervisor(
            runtime: runtime,
            config: config,
            live: live,
            record: record,
            hangups: hangups,
            load: reload,
            logger: logger,
            notifier: notifier
        )
        // A SIGHUP between the config's load and the trap above was held by HangupGate: apply it now.
        if HangupGate.take() > 0 {
            logger.notice("SIGHUP while starting: reloading once running")
            supervisor.requestReload()
        }
        let started = Announcement(logger: logger, config: config, notifier: notifier)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] =
            ([started, StorageService(store: store, logger: logger), httpClient, supervisor] as [any Service]).map {
                .named($0)
            }
        if let (host, _) = statusAddress, !StatusServer.isLoopback(host) {
            logger.warning(
                "the status server listens beyond this machine; anyone who can reach it sees the followed addresses, balances and events. Bind to 127.0.0.1 unless a proxy in front guards it",
                metadata: ["http": "\(host)"]
            )
            logger.warning(
                httpToken == nil
                    ? "adding and removing accounts over HTTP is refused: start with --http-token to allow it with a token"
                    : "adding and removing accounts over HTTP needs the --http-token (Authorization: Bearer)"
            )
        }
        if let (host, port) = statusAddress {
            let collector = ScrapeCollector(
                store: store,
                board: runtime.board,
                config: { live.config },
                metrics: metrics
            )
            var sources = statusSources(
                store: store,
                live: live,
                board: runtime.board,
                registry: registry,
                signal: runtime.factory.signal,
                logger: logger
            ) {
                collector.collect()
            }
            sources.lastReload = { record.json() }
            let server = StatusServer(
                host: host,
                port: port,
                sources: sources,
                token: httpToken,
                streamClients: streamClients,
                logger: logger
            ) { [onListening] bound in
                let url = "http://\(host.contains(":") ? "[\(host)]" : host):\(bound)/"
                logger.info("status server listening", metadata: ["address": "\(url)"])
                onListening?(url)
            }
            services.append(.named(server))
        }
        services += extraServices.map { .named($0) }
        if let duration {
            services.append(
                .named(StopAfter(duration: duration), successTerminationBehavior: .gracefullyShutdownGroup)
            )
        }
        var groupConfiguration = ServiceGroupConfiguration(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        // A slow shutdown escalates to cancellation, so the process exits within 5 s of a signal.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(4)
        let group = ServiceGroup(configuration: groupConfiguration)
        do {
            try await group.run()
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            let text = "\(error)"
            if let (host, port) = statusAddress, text.contains("Address already in use") {
                throw CommandFailure.runtime("--http \(host):\(port): the address is already in use")
            }
            throw CommandFailure.runtime(text)
        }
        logger.info("watcher stopped")
    }
}

/// Logs "watcher started" and tells systemd `READY=1` from inside the group, once its signal handlers are installed
/// and the store is open, so a SIGTERM that follows either always stops the watcher cleanly; `STOPPING=1` when the
/// group begins to shut down.
struct Announcement: Service {
    let logger: Logger
    let config: WatcherConfig
    var notifier = ServiceNotifier()

    func run() async throws {
        logger.info(
            "watcher started",
            metadata: [
                "providers": "\(config.providers.count)", "watches": "\(config.watches.count)",
                "sinks": "\(config.sinks.count)", "data": "\(config.storage.path)",
            ]
        )
        notifier.ready(status: "watching: \(config.watches.count) watches, \(config.sinks.count) sinks")
        try? await gracefulShutdown()
        notifier.stopping()
    }
}

/// Ends the group after a fixed time (`--duration`).
struct StopAfter: Service {
    let duration: Duration

    func run() async throws {
        // A signal's graceful shutdown cancels the sleep; either way the group then shuts down.
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
    }
}

extension StorageSettings {
    /// LMDB options from the `storage` section.
    var environmentOptions: EnvironmentOptions {
        EnvironmentOptions(
            mapSize: mapSize,
            maxMapSize: maxMapSize,
            durability: durability == "nometasync" ? .noMetaSync : .full
        )
    }
}

extension Daemon {
    /// What the status server serves, with the actions of `watcher block` and `watcher accounts add/remove`
    /// (the status server does not depend on the CLI: it gets them as closures). Each action reads the config and
    /// providers in force when it runs, so a reload applies to the next request.
    func statusSources(
        store: Store,
        live: LiveState,
        board: ProviderHealthBoard,
        registry: PrometheusCollectorRegistry,
        signal: LogSignal,
        logger: Logger,
        beforeScrape: @escaping @Sendable () -> Void
    ) -> StatusServer.Sources {
        var sources = StatusServer.Sources(
            store: store,
            board: board,
            registry: registry,
            beforeScrape: beforeScrape
        )
        let chain = sources.chain
        sources.watches = config.watches
        sources.currentWatches = { live.config.watches }
        // The daemon's own providers and scheduler: the UI's requests share the rate limits.
        sources.fetchBlock = { id in try await live.session.ask(chain: chain) { try await $0.block(id) } }
        sources.addAccount = { text, label in
            let session = live.session
            let changes = AccountChanges(config: session.config, chain: chain, session: session)
            return try await changes.add(text, label: label) { store }
        }
        sources.removeAccount = { text in
            let session = live.session
            return try await AccountChanges(config: session.config, chain: chain, session: session)
                .remove(text, store: store)
        }
        sources.nextWalletAddress = { id, label in
            let watches = live.config.watches.filter { $0.kind == .wallet }
            guard let watch = watches.first(where: { $0.id == id }),
                let wallet = WalletBook.load(chain: watch.chain, watches: [watch]).wallets[id]
            else { throw CommandFailure.usage("no wallet \(id)") }
            return try await WalletIssuer.next(wallet, chain: watch.chain, label: label, store: store).json
        }
        sources.requestWrites = RequestWritesSource.make(live: live, store: store, signal: signal, logger: logger)
        return sources
    }
}

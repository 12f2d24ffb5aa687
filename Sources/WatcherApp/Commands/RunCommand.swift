import ArgumentParser
import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import UnixSignals
import WatcherCore
import WatcherHTTP
import WatcherStatus
import WatcherStorage

/// `watcher run`: the daemon.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the watcher until SIGINT or SIGTERM.",
        discussion: "Stops cleanly within 5 seconds of a signal, with the store flushed and closed."
    )

    @OptionGroup var options: ConfigOptions

    @Option(help: "Serve /healthz, /metrics and /api/* on HOST:PORT (e.g. 127.0.0.1:9110).")
    var http: String?

    @Option(help: "How often providers are probed for reachability and sync state, e.g. 30s.")
    var checkInterval: String = "30s"

    func validate() throws {
        guard Duration(configText: checkInterval).map({ $0 >= .seconds(1) }) == true else {
            throw ValidationError("--check-interval: expected a duration of at least 1s, such as \"30s\"")
        }
        if let http, Self.hostPort(http) == nil {
            throw ValidationError("--http: expected HOST:PORT such as 127.0.0.1:9110, got \"\(http)\"")
        }
    }

    static func hostPort(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        let host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }

    func run() async throws {
        let config = try options.load()
        let logger = Logger(label: "watcher")
        for warning in config.warnings { logger.warning("\(warning)") }
        let store: Store
        do {
            store = try Store(path: config.storage.path, options: config.storage.environmentOptions, logger: logger)
        } catch {
            throw CommandFailure.runtime("cannot open the store: \(error)")
        }
        let httpClient = HTTPClientService(logger: logger)
        let registry = PrometheusCollectorRegistry()
        let metrics = WatcherMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let runtime: WatcherRuntime
        do {
            runtime = try WatcherRuntime(
                config: config,
                store: store,
                http: httpClient.client,
                logger: logger,
                metrics: metrics,
                checkInterval: Duration(configText: checkInterval) ?? .seconds(30)
            )
        } catch {
            await httpClient.shutdown()
            await store.close()
            throw CommandFailure.runtime("\(error)")
        }
        var services: [any Service] = [StorageService(store: store, logger: logger), httpClient]
        services += runtime.services
        if let http, let (host, port) = Self.hostPort(http) {
            let sinkIDs = config.sinks.map(\.id)
            let sources = StatusServer.Sources(store: store, board: runtime.board, registry: registry) {
                guard let (last, cursors) = try? store.read({ (try $0.lastEventSeq(), try $0.cursors()) }) else {
                    return
                }
                for sink in sinkIDs { metrics.sinkLag(sink, Int(last - min(last, cursors[sink] ?? 0))) }
            }
            services.append(
                StatusServer(host: host, port: port, sources: sources, logger: logger) { bound in
                    logger.info("status server listening", metadata: ["address": "http://\(host):\(bound)"])
                }
            )
        }
        let group = ServiceGroup(
            configuration: .init(
                services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        logger.info(
            "watcher started",
            metadata: [
                "providers": "\(config.providers.count)", "watches": "\(config.watches.count)",
                "sinks": "\(config.sinks.count)", "data": "\(config.storage.path)",
            ]
        )
        do {
            try await group.run()
        } catch {
            throw CommandFailure.runtime("\(error)")
        }
        logger.info("watcher stopped")
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

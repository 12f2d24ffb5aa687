import Foundation
import Hummingbird
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle
import WatcherCore
import WatcherStorage

/// `watcher run --http 127.0.0.1:9110`: `/healthz`, `/metrics` (Prometheus text), `/api/blocks` and
/// `/api/accounts`. Binds to loopback unless told otherwise.
public struct StatusServer: Service {
    /// What the server reads.
    public struct Sources: Sendable {
        /// The store (read-only use).
        public var store: Store
        /// Provider reachability and sync state.
        public var board: ProviderHealthBoard
        /// The Prometheus registry the metrics factory writes to.
        public var registry: PrometheusCollectorRegistry
        /// Called before `/metrics` renders, to refresh gauges computed on demand (sink lag).
        public var beforeScrape: @Sendable () -> Void
        /// The chain of `/api/blocks` and `/api/accounts`.
        public var chain: String

        /// Creates the sources.
        public init(
            store: Store,
            board: ProviderHealthBoard,
            registry: PrometheusCollectorRegistry,
            chain: String = "btc",
            beforeScrape: @escaping @Sendable () -> Void = {}
        ) {
            self.store = store
            self.board = board
            self.registry = registry
            self.chain = chain
            self.beforeScrape = beforeScrape
        }
    }

    let application: Application<RouterResponder<BasicRequestContext>>

    /// Creates the server.
    /// - Parameters:
    ///   - host: the address to bind, `127.0.0.1` by default.
    ///   - port: the port (0 picks a free one; `onStarted` gets it).
    ///   - sources: what to serve.
    ///   - logger: the logger.
    ///   - onStarted: receives the bound port.
    public init(
        host: String = "127.0.0.1",
        port: Int,
        sources: Sources,
        logger: Logger,
        onStarted: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        let router = Router()
        StatusRoutes(sources: sources).add(to: router)
        application = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "watcher"),
            onServerRunning: { channel in await onStarted(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }

    public func run() async throws {
        try await application.run()
    }
}

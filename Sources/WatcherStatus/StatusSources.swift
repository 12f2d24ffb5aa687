import Prometheus
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherObservability
import WatcherStorage

extension StatusServer {
    /// What the server reads, and the actions it may take (injected by the daemon, which owns the providers).
    public struct Sources: Sendable {
        /// Adds an account: checks the text offline, then through the providers, then stores it.
        public typealias AddAccount =
            @Sendable (_ text: String, _ label: String?) async throws -> (
                Account, AddressSummary
            )

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
        /// The config's watches: its `address` watches are followed accounts too.
        public var watches: [WatchConfig] = []
        /// The watches in force now, when a reload can change them (read instead of ``watches``).
        public var currentWatches: (@Sendable () -> [WatchConfig])?
        /// The outcome of the last configuration reload, for `/healthz`; `nil` before the first.
        public var lastReload: (@Sendable () -> JSONValue?)?
        /// Fetches a block the store does not hold through the providers (`watcher block`); `nil`: store only.
        public var fetchBlock: (@Sendable (BlockID) async throws -> BlockHeader)?
        /// `POST /api/accounts`; `nil`: refused. Throws ``AccountChangeError`` for the user's mistakes.
        public var addAccount: AddAccount?
        /// `DELETE /api/accounts/{address}`, answering what happened; `nil`: refused.
        public var removeAccount: (@Sendable (String) async throws -> String)?
        /// `POST /api/wallets/{id}/next`: hands out the wallet's next receive address, answering
        /// `{"wallet", "branch", "index", "address", "uri"}`; `nil`: refused.
        public var nextWalletAddress: (@Sendable (_ wallet: String, _ label: String?) async throws -> JSONValue)?

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
}

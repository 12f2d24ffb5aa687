import Prometheus
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherObservability
import WatcherRules
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
        /// The payment requests' writes (`POST /api/requests`, `…/cancel`, `…/mark`); `nil`: refused.
        public var requestWrites: RequestWrites?

        /// The writes of payment requests, done by the daemon (it owns the wallets and the event log). Each throws
        /// ``RequestOrder/Refusal``, ``RequestActions/Refusal`` or ``RequestActions/NotFound`` for the user's
        /// mistakes.
        public struct RequestWrites: Sendable {
            /// Creates a request (or finds the order id's), answering it with whether it is new and the gap advice.
            public var create:
                @Sendable (RequestOrder) async throws -> (request: JSONValue, isNew: Bool, warning: String?)
            /// Cancels a request.
            public var cancel: @Sendable (_ id: String, _ note: String?) async throws -> JSONValue
            /// Marks a request settled or invalid.
            public var mark:
                @Sendable (_ id: String, _ status: PaymentRequest.Status, _ note: String?) async throws -> JSONValue

            /// Creates the writes.
            public init(
                create:
                    @escaping @Sendable (RequestOrder) async throws -> (
                        request: JSONValue, isNew: Bool, warning: String?
                    ),
                cancel: @escaping @Sendable (_ id: String, _ note: String?) async throws -> JSONValue,
                mark:
                    @escaping @Sendable (_ id: String, _ status: PaymentRequest.Status, _ note: String?) async throws ->
                    JSONValue
            ) {
                self.create = create
                self.cancel = cancel
                self.mark = mark
            }
        }

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

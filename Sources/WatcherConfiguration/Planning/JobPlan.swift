import WatcherCore

/// Every polling job a config needs, worked out once from the config and the plugins' typed capabilities and
/// options. The engine runs exactly these jobs and `watcher check` prints exactly them, with what each costs.
public struct JobPlan: Sendable {
    /// Engine-wide settings that shape the plan.
    public struct Settings: Sendable {
        /// How often CLI-followed accounts are refreshed.
        public var accountsInterval: Duration
        /// How often the store is read for accounts added by `watcher accounts add` (no request).
        public var accountsCheck: Duration
        /// How often status-capable providers are probed.
        public var healthInterval: Duration
        /// The tip interval of a chain followed without a `blocks` watch and without faster watches.
        public var tipInterval: Duration
        /// New blocks expected per hour (6 on Bitcoin), for the plan's figures.
        public var blocksPerHour: Double
        /// CLI-followed accounts per chain, for the plan's figures (the engine reads them from the store).
        public var accounts: [String: Int]
        /// Addresses in each wallet's window (both branches), by wallet id, where a store knows them; a wallet not
        /// listed counts its first window (`gap` per branch).
        public var walletWindows: [String: Int]

        /// Creates settings.
        public init(
            accountsInterval: Duration = .seconds(60),
            accountsCheck: Duration = .seconds(2),
            healthInterval: Duration = .seconds(300),
            tipInterval: Duration = .seconds(30),
            blocksPerHour: Double = 6,
            accounts: [String: Int] = [:],
            walletWindows: [String: Int] = [:]
        ) {
            self.accountsInterval = accountsInterval
            self.accountsCheck = accountsCheck
            self.healthInterval = healthInterval
            self.tipInterval = tipInterval
            self.blocksPerHour = blocksPerHour
            self.accounts = accounts
            self.walletWindows = walletWindows
        }
    }

    /// What a job does.
    public enum Work: Sendable, Equatable {
        /// Follows a chain's tip: a `blocks` watch (`announce`), or the implicit tip tracker of a chain whose
        /// addresses or txids are followed. Headers come from `headerProviders` (none: tip only). With `scan`,
        /// every new block is also read once and matched against those watches' addresses.
        case chain(
            chain: String,
            watch: String,
            maxBackfill: Int,
            announce: Bool,
            headerProviders: [String],
            scan: Scan?
        )
        /// One round over an `address` watch's addresses: the summary poll, or, for a scanned watch, the
        /// low-priority fill of balances not known yet.
        case addresses(chain: String, watch: String, strategy: WatchConfig.AddressStrategy)
        /// One round over a `wallet` watch's window: the initial sync and the history check of each address the
        /// window grows by, and, for a polled wallet, every address of the window.
        case wallet(chain: String, watch: String, strategy: WatchConfig.AddressStrategy)
        /// CLI-followed accounts of a chain: new ones at once, all of them every `accountsInterval`.
        case accounts(chain: String, refresh: Duration)
        /// A `tx` watch, until its transaction is settled.
        case tx(chain: String, watch: String)
        /// A `price` watch.
        case price(watch: String)
        /// The next-block fee rate of a chain, for wallets whose requests hold zero-conf payments to it
        /// (`zeroConf.minFeeRate: "nextBlock"`).
        case fee(chain: String)
        /// A provider's sync-state probe.
        case health(provider: String)
        /// A provider with no sync-state endpoint (a price feed, rawaddr): asked once per interval while
        /// `/healthz` counts it unreachable, so a failover provider that no job uses any more is seen to recover.
        /// It costs nothing while the provider answers.
        case recovery(provider: String)
        /// A chain's push connection (the job's one provider): new blocks start the chain job at once and
        /// replace its tip polling while connected; pushed transactions of up to `addresses` followed addresses
        /// start a check of those addresses.
        case push(chain: String, addresses: Int)
    }

    /// Block scanning on a chain job.
    /// While a push connection is up, the tip is still polled this often, in case a push was lost.
    public static let pushSafetyPoll: Duration = .seconds(300)

    /// The watch id that stands for the CLI's accounts in a ``Scan``.
    public static let accountsWatch = "accounts"

    public struct Scan: Sendable, Equatable {
        /// The `address` and `wallet` watches scanned, and ``JobPlan/accountsWatch`` when the CLI's accounts are.
        public var watches: [String]
        /// Providers that serve a block's transactions, in failover order.
        public var providers: [String]
    }

    /// One job.
    public struct Job: Sendable, Equatable {
        /// A name for logs and `check`, e.g. `watch wallet`, `tip btc`, `health bb`.
        public var name: String
        /// What it does.
        public var work: Work
        /// Providers in failover order.
        public var providers: [String]
        /// How often it runs.
        public var every: Duration
        /// Requests per hour on its primary provider while nothing changes (new blocks included).
        public var requestsPerHour: Double
        /// How the figure was counted.
        public var detail: String
        /// It makes requests only while something on its chain is followed.
        public var whileFollowing: Bool
        /// Requests per hour on providers other than the primary: the agreed tip asks each trusted provider.
        public var alsoAsks: [String: Double] = [:]
    }

    /// The jobs, chain by chain, then tx, price and health jobs.
    public var jobs: [Job]
    /// The settings it was made with.
    public var settings: Settings

    /// Plans `config`.
    public init(config: WatcherConfig, settings: Settings = .init()) {
        self.settings = settings
        var planner = JobPlanner(config: config, settings: settings)
        jobs = planner.plan()
    }

    /// Pages of 1,000 transactions a Bitcoin block takes, for the plan's scan figures (blocks hold 2,000 to 4,000).
    public static let pagesPerBlock = 4

    /// Requests per hour each provider is asked for, as primary.
    public var demandByProvider: [String: Double] {
        jobs.reduce(into: [:]) { result, job in
            guard let primary = job.providers.first else { return }
            result[primary, default: 0] += job.requestsPerHour
            for (id, perHour) in job.alsoAsks { result[id, default: 0] += perHour }
        }
    }
}

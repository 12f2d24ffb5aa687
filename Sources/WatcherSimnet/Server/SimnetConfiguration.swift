import Foundation
import Logging
import WatcherCore

/// How to run a ``Simnet``.
public struct SimnetConfiguration: Sendable {
    /// The chain's shape and seed.
    public var chain: ChainParameters
    /// The interface to bind, `127.0.0.1` by default.
    public var host: String
    /// The port to bind; `0` picks a free one (read it back from ``Simnet/port``).
    public var port: Int
    /// Mine a block this often; `nil` or zero mines only on demand.
    public var blockInterval: Duration?
    /// Rate limits per family at start (none by default).
    public var rateLimits: [ProviderFamily: RateLimit]
    /// The websocket's limits (Blockbook's by default).
    public var websocketLimits = WebSocketLimits()
    /// Whether `/websocket` is served; `false` answers 404 there, as a Blockbook behind a proxy that does not pass
    /// the upgrade does (clients must fall back to polling).
    public var websocket = true
    /// Starting prices (missing currencies take ``PriceModel/defaultPrices``).
    public var initialPrices: [PriceCurrency: Decimal]
    /// The wall clock for rate limiting, logs and price times; a manual clock's source (`ManualClock.timeSource`
    /// in `WatcherTesting`) freezes or steps it. The simnet keeps its own token bucket, an independent limiter,
    /// but tells time the project's one way.
    public var clock: TimeSource
    /// The logger for the HTTP server (warnings and up by default).
    public var logger: Logger
    /// The JSON-RPC user (`watcher` by default).
    public var rpcUser = "watcher"
    /// The JSON-RPC password (`watcher` by default).
    public var rpcPassword = "watcher"
    /// Where to write a Core-style cookie file (`__cookie__:<64 hex digits>`) while serving; `nil` writes none.
    /// The cookie authenticates as well as the user and password, and the file is removed at shutdown.
    public var cookieFile: String?
    /// Whether the node behaves as with `-txindex=1` (the default): `getrawtransaction` and `/rest/tx` find
    /// confirmed transactions without a block hash. Off, only mempool transactions or a given block's are found.
    public var txindex = true
    /// The Bitcoin Core release the node face answers as (``CoreVersion/newest`` by default): `getnetworkinfo`
    /// reports it, and `getindexinfo` lists `txospenderindex` beside `txindex` from 31.0.
    public var coreVersion = CoreVersion.newest
    /// Where to publish Bitcoin Core's ZMQ `hashblock` and `sequence` topics (e.g. `tcp://127.0.0.1:*` for any free
    /// port, read back from ``Simnet/zmqEndpoint``); `nil` (the default) publishes nothing and `getzmqnotifications`
    /// answers `[]`.
    public var zmq: String?
    /// The port of the Electrum face (newline-delimited JSON-RPC over TCP on ``host``; `0` picks a free one, read
    /// back from ``Simnet/electrumPort``); `nil` (the default) serves none.
    public var electrumPort: Int?
    /// Serve the Electrum face over TLS, with a self-signed certificate made at start (its pin: ``Simnet/electrumPin``).
    public var electrumTLS = false
    /// The Electrum face's personality and switches at start.
    public var electrum = ElectrumSettings()

    /// Creates a configuration.
    /// - Parameters:
    ///   - seed: seeds every random choice; equal seeds give equal chains.
    ///   - host: the interface to bind.
    ///   - port: the port, `0` for any free one.
    ///   - blockInterval: how often to mine a block, `nil` for on demand only.
    ///   - txsPerBlock: transactions per block, coinbase included.
    ///   - startHeight: the height of the first block.
    ///   - chain: full chain parameters; when given, overrides `seed`, `txsPerBlock` and `startHeight`.
    ///   - rateLimits: rate limits per family.
    ///   - initialPrices: starting prices.
    ///   - clock: the wall clock by default: the simnet is the independent server whose limits the engine's are
    ///     checked against, so it keeps real time unless a test hands it a manual clock.
    ///   - logger: the server's logger.
    public init(
        seed: UInt64 = 42,
        host: String = "127.0.0.1",
        port: Int = 0,
        blockInterval: Duration? = nil,
        txsPerBlock: Int = 50,
        startHeight: Int = 800_000,
        chain: ChainParameters? = nil,
        rateLimits: [ProviderFamily: RateLimit] = [:],
        initialPrices: [PriceCurrency: Decimal] = [:],
        clock: TimeSource = .system,
        logger: Logger? = nil
    ) {
        self.chain = chain ?? ChainParameters(seed: seed, startHeight: startHeight, txsPerBlock: txsPerBlock)
        self.host = host
        self.port = port
        self.blockInterval = blockInterval
        self.rateLimits = rateLimits
        self.initialPrices = initialPrices
        self.clock = clock
        self.logger =
            logger
            ?? {
                var logger = Logger(label: "watcher.simnet")
                logger.logLevel = .warning
                return logger
            }()
    }
}

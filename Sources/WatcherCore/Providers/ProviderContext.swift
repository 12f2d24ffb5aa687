import Logging

/// What a plugin needs to construct itself: the shared HTTP transport, a logger and the clock. Built by `watcher run`.
public struct PluginContext: Sendable {
    /// The shared HTTP transport.
    public var http: any HTTPFetching
    /// A logger; plugins add their id to its metadata.
    public var logger: Logger
    /// The data directory (file sinks resolve relative paths against the working directory, not this).
    public var dataDirectory: String
    /// The `chain` of the provider being built (`btc`, `btc-testnet4`, …), set by the plugin instance of a provider
    /// entry; `nil` for sinks and for contexts made outside a config. A node adapter checks the node's chain by it.
    public var chain: String?
    /// The clock a plugin's timers, retries and backoffs read (the app's: the system clock; a test's: its own).
    public var time: TimeSource

    /// Creates a context.
    public init(
        http: any HTTPFetching,
        logger: Logger,
        dataDirectory: String,
        chain: String? = nil,
        time: TimeSource
    ) {
        self.http = http
        self.logger = logger
        self.dataDirectory = dataDirectory
        self.chain = chain
        self.time = time
    }
}

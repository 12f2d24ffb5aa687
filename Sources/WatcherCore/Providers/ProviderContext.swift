import Logging

/// What a plugin needs to construct itself: the shared HTTP transport and a logger. Built by `watcher run`.
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

    /// Creates a context.
    public init(http: any HTTPFetching, logger: Logger, dataDirectory: String, chain: String? = nil) {
        self.http = http
        self.logger = logger
        self.dataDirectory = dataDirectory
        self.chain = chain
    }
}

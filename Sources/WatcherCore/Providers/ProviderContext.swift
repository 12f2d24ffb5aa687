import Logging

/// What a plugin needs to construct itself: the shared HTTP transport and a logger. Built by `watcher run`.
public struct PluginContext: Sendable {
    /// The shared HTTP transport.
    public var http: any HTTPFetching
    /// A logger; plugins add their id to its metadata.
    public var logger: Logger
    /// The data directory (file sinks resolve relative paths against the working directory, not this).
    public var dataDirectory: String

    /// Creates a context.
    public init(http: any HTTPFetching, logger: Logger, dataDirectory: String) {
        self.http = http
        self.logger = logger
        self.dataDirectory = dataDirectory
    }
}

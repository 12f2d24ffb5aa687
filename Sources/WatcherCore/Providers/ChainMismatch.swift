/// A provider serves another chain than the one its config names (a node started on testnet under a `btc`
/// provider). It is a configuration error, not an outage: no retry or failover can fix it, so the engine stops
/// `watcher run` with it (exit 2), and `watcher check --online` exits 2 with it.
public struct ChainMismatch: Error, Sendable, Equatable, CustomStringConvertible {
    /// The provider's id.
    public var provider: String
    /// What the provider says it runs, in its own words (`test`).
    public var reported: String
    /// Where it says so (`getblockchaininfo.chain`).
    public var source: String
    /// The config's chain id (`btc`).
    public var configured: String
    /// What the configured chain is in the provider's words (`main`).
    public var expected: String

    /// Creates the error.
    public init(provider: String, reported: String, source: String, configured: String, expected: String) {
        self.provider = provider
        self.reported = reported
        self.source = source
        self.configured = configured
        self.expected = expected
    }

    public var description: String {
        "provider \(provider): the node is on \"\(reported)\" (\(source)), the config says chain \"\(configured)\", "
            + "which is \"\(expected)\": point the provider at a node of that chain, or fix its \"chain\""
    }
}

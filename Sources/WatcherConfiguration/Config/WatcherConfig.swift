import WatcherCore
import WatcherJSON

/// A loaded, validated `watcher.json`.
public struct WatcherConfig: Sendable, SecretBearing {
    /// The `storage` section.
    public var storage: StorageSettings
    /// The `providers` section, in file order.
    public var providers: [ProviderConfig]
    /// The `watches` section.
    public var watches: [WatchConfig]
    /// The `sinks` section.
    public var sinks: [SinkConfig]
    /// The whole config with defaults filled in and secrets masked, for `watcher check`.
    public var resolved: JSONValue
    /// Warnings found while loading.
    public var warnings: [ConfigIssue]
    /// The file as written (references unresolved, nothing masked): what a reload compares (``ConfigDiff``).
    /// Never shown.
    public var document: JSONValue = .null

    /// The provider with `id`.
    public func provider(_ id: String) -> ProviderConfig? { providers.first { $0.id == id } }
}

/// The `storage` section.
public struct StorageSettings: Sendable, Equatable {
    /// The data directory (absolute, or relative to the working directory).
    public var path: String
    /// The initial LMDB map size in bytes.
    public var mapSize: Int
    /// How far the map may grow.
    public var maxMapSize: Int
    /// `full` or `nometasync`.
    public var durability: String
    /// How many block headers per chain to keep.
    public var keepHeaders: Int
    /// Events older than this are trimmed even if a sink lags (`nil` = never by age).
    public var eventRetention: Duration?
}

/// One decoded plugin entry: its id, type and typed options, ready to be built once the runtime exists.
public struct PluginInstance: Sendable, SecretBearing {
    /// The config id.
    public var id: String
    /// The registry entry.
    public var entry: PluginRegistry.Entry
    let options: any Sendable
    /// The plugin's options as `watcher check` shows them.
    public var resolvedOptions: JSONValue
    /// The `chain` of a provider entry, handed to the plugin in its ``PluginContext``; `nil` for sinks.
    public var chain: String?

    /// The rate limit the options imply (e.g. a price feed preset), if any.
    public var optionsRateLimit: RateLimit? { (options as? any ProviderOptions)?.defaultRateLimit }

    /// Builds the chain provider, if the plugin has one.
    public func makeChainProvider(context: PluginContext) throws -> (any ChainProvider)? {
        var context = context
        context.chain = context.chain ?? chain
        return try entry.chain?(id, options, context)
    }

    /// Builds the price provider, if the plugin has one.
    public func makePriceProvider(context: PluginContext) throws -> (any PriceProvider)? {
        try entry.price?(id, options, context)
    }

    /// Builds the sink.
    public func makeSink(context: PluginContext) throws -> any Sink {
        guard let sink = entry.sink else { throw PluginError(message: "\(id) is not a sink") }
        return try sink(id, options, context)
    }
}

/// One entry of `providers`.
public struct ProviderConfig: Sendable {
    /// The id watches refer to.
    public var id: String
    /// The plugin type.
    public var type: String
    /// The chain it serves, e.g. `btc` (chain providers).
    public var chain: String
    /// Its request budget (config, else the plugin's default).
    public var rateLimit: RateLimit
    /// The decoded plugin.
    public var plugin: PluginInstance

    /// Addresses per batch request, for providers that batch (their typed `batchSize` option).
    public var batchSize: Int? {
        guard chainCapabilities.contains(.addressBatch) else { return nil }
        return (plugin.options as? any ProviderOptions)?.batchSize
    }

    /// Addresses its push connection follows, when its options enable push; `nil` otherwise.
    public var pushAddresses: Int? { (plugin.options as? any ProviderOptions)?.pushAddresses }

    /// What it can do for chain watches, typed.
    public var chainCapabilities: ChainCapabilities { plugin.entry.descriptor.chainCapabilities }

    /// The currencies it quotes as a price provider, upper case; `nil` when it quotes any currency asked of it.
    public var priceCurrencies: [String]? {
        (plugin.options as? any ProviderOptions)?.priceCurrencies?.map { $0.uppercased() }
    }

    /// Catalog capabilities.
    public var capabilities: [String] { plugin.entry.descriptor.capabilities }
    /// Whether it can serve chain watches.
    public var servesChain: Bool { plugin.entry.chain != nil && plugin.entry.descriptor.role == .chain }
    /// Whether it can serve price watches.
    public var servesPrices: Bool { plugin.entry.descriptor.role == .price || capabilities.contains("prices") }
}

/// One entry of `sinks`.
public struct SinkConfig: Sendable {
    /// The id.
    public var id: String
    /// The plugin type.
    public var type: String
    /// Event type globs it receives (`["*"]` = all).
    public var events: [String]
    /// The decoded plugin.
    public var plugin: PluginInstance
}

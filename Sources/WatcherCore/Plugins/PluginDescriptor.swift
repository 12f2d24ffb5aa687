/// The role a plugin plays, as `Plugins.json` names it.
public enum PluginRole: String, Sendable, Hashable, CaseIterable {
    /// A ``ChainProvider``.
    case chain
    /// A ``PriceProvider``.
    case price
    /// A ``Sink``.
    case sink
}

/// What the catalog says about a plugin besides its options.
public struct PluginDescriptor: Sendable, Hashable {
    /// The config `type`.
    public var type: String
    /// Its main role.
    public var role: PluginRole
    /// One line for `watcher plugins`.
    public var summary: String
    /// Capability names, e.g. `tip`, `address`, `addressBatch`, `prices`, `signing`.
    public var capabilities: [String]
    /// The chain capabilities among ``capabilities``, typed.
    public var chainCapabilities: ChainCapabilities { ChainCapabilities(names: capabilities) }
    /// The default request budget for providers; `nil` for sinks.
    public var defaultRateLimit: RateLimit?
    /// Default rate limits of named presets (e.g. `json-price` feeds), shown in the catalog.
    public var presetRateLimits: [String: RateLimit]
    /// Requests one `tip()` costs (Blockbook asks its status page, then the block index: 2), for the budget plan.
    public var requestsPerTip: Int
    /// Whether a price provider makes one request per currency quoted (`json-price`), for the budget plan.
    public var requestPerCurrency: Bool

    /// Creates a descriptor.
    public init(
        type: String,
        role: PluginRole,
        summary: String,
        capabilities: [String],
        defaultRateLimit: RateLimit?,
        presetRateLimits: [String: RateLimit] = [:],
        requestsPerTip: Int = 1,
        requestPerCurrency: Bool = false
    ) {
        self.requestPerCurrency = requestPerCurrency
        self.presetRateLimits = presetRateLimits
        self.requestsPerTip = requestsPerTip
        self.type = type
        self.role = role
        self.summary = summary
        self.capabilities = capabilities
        self.defaultRateLimit = defaultRateLimit
    }

    /// The descriptor of a sink plugin: role ``PluginRole/sink``, no request budget.
    public static func sink(type: String, summary: String, capabilities: [String]) -> PluginDescriptor {
        PluginDescriptor(type: type, role: .sink, summary: summary, capabilities: capabilities, defaultRateLimit: nil)
    }
}

/// A plugin's typed options, read with an ``ObjectReader`` that records every problem and the option schema.
public protocol PluginOptions: Sendable {
    /// Reads the options. Record problems in `reader.context`; never throw or crash. Read every key
    /// unconditionally so the schema is complete; do not call `finish()` (the registry does).
    init(from reader: ObjectReader)

    /// A rate limit that depends on the options (e.g. a feed preset); `nil` uses the descriptor's default.
    var defaultRateLimit: RateLimit? { get }

    /// Addresses per batch request, for providers with the `addressBatch` capability; `nil` otherwise.
    var batchSize: Int? { get }

    /// The currencies a price provider quotes, as the options declare them (e.g. `json-price`'s `currencies`);
    /// `nil` when it quotes any currency asked of it. `watcher check` rejects price watches in other currencies.
    var priceCurrencies: [String]? { get }

    /// Addresses one push connection follows, when the options enable push (``ChainPushing``); `nil` otherwise.
    var pushAddresses: Int? { get }
}

extension PluginOptions {
    public var defaultRateLimit: RateLimit? { nil }
    public var batchSize: Int? { nil }
    public var priceCurrencies: [String]? { nil }
    public var pushAddresses: Int? { nil }
}

/// A provider plugin: one config `type` that builds a chain provider, a price provider, or both.
public protocol ProviderPlugin: SendableMetatype {
    /// Its options.
    associatedtype Options: PluginOptions
    /// What the catalog says.
    static var descriptor: PluginDescriptor { get }
    /// Builds the chain provider, or `nil` when the plugin has none.
    static func makeChainProvider(id: String, options: Options, context: PluginContext) throws -> (any ChainProvider)?
    /// Builds the price provider, or `nil` when the plugin has none.
    static func makePriceProvider(id: String, options: Options, context: PluginContext) throws -> (any PriceProvider)?
}

extension ProviderPlugin {
    public static func makeChainProvider(id: String, options: Options, context: PluginContext) throws
        -> (any ChainProvider)?
    { nil }

    public static func makePriceProvider(id: String, options: Options, context: PluginContext) throws
        -> (any PriceProvider)?
    { nil }
}

/// A sink plugin: one config `type` that builds a ``Sink``.
public protocol SinkPlugin: SendableMetatype {
    /// Its options.
    associatedtype Options: PluginOptions
    /// What the catalog says.
    static var descriptor: PluginDescriptor { get }
    /// Builds the sink.
    static func make(id: String, options: Options, context: PluginContext) throws -> any Sink
}

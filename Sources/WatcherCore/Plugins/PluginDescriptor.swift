/// The role a plugin plays, as `Plugins.json` names it.
public enum PluginRole: String, Sendable, Hashable, CaseIterable {
    /// A ``ChainProvider``.
    case chain
    /// A ``PriceProvider``.
    case price
    /// A ``Sink``.
    case sink
}

/// What the catalog says about a plugin besides its options. Each fact is stated here once: the planner reads it
/// from the descriptor, and a provider reads its ``ChainProvider/capabilities`` and
/// ``ChainProvider/requestsPerTip`` from its plugin's descriptor, so the two cannot drift apart.
public struct PluginDescriptor: Sendable, Hashable {
    /// The config `type`.
    public var type: String
    /// Its main role.
    public var role: PluginRole
    /// One line for `watcher plugins`.
    public var summary: String
    /// The chain capabilities a provider has, typed (none for price feeds and sinks).
    public var chainCapabilities: ChainCapabilities
    /// Whether the provider quotes prices.
    public var quotesPrices: Bool
    /// What a sink does, in words (`jsonl`, `rotation`, `retry`, …); empty for providers.
    public var sinkFeatures: [String]
    /// The default request budget for providers; `nil` for sinks.
    public var defaultRateLimit: RateLimit?
    /// Default rate limits of named presets (e.g. `json-price` feeds), shown in the catalog.
    public var presetRateLimits: [String: RateLimit]
    /// Requests one `tip()` costs (Blockbook asks its status page, then the block index: 2), for the budget plan
    /// and the scheduler alike.
    public var requestsPerTip: Int
    /// Whether a price provider makes one request per currency quoted (`json-price`), for the budget plan.
    public var requestPerCurrency: Bool

    /// Capability names as `Plugins.json` lists them: the chain capabilities, then `prices`, or a sink's features.
    public var capabilities: [String] { chainCapabilities.names + (quotesPrices ? ["prices"] : []) + sinkFeatures }

    /// The descriptor of a provider plugin: a chain provider when it has chain capabilities, else a price feed.
    /// - Parameters:
    ///   - chain: what its chain provider serves; empty for a price feed.
    ///   - prices: whether it also (or only) quotes prices.
    ///   - defaultRateLimit: its published request budget.
    ///   - presetRateLimits: budgets of named presets, for the catalog.
    ///   - requestsPerTip: requests one `tip()` makes.
    ///   - requestPerCurrency: whether a quote costs one request per currency.
    public static func provider(
        type: String,
        summary: String,
        chain: ChainCapabilities = [],
        prices: Bool = false,
        defaultRateLimit: RateLimit,
        presetRateLimits: [String: RateLimit] = [:],
        requestsPerTip: Int = 1,
        requestPerCurrency: Bool = false
    ) -> PluginDescriptor {
        PluginDescriptor(
            type: type,
            role: chain.isEmpty ? .price : .chain,
            summary: summary,
            chainCapabilities: chain,
            quotesPrices: prices,
            sinkFeatures: [],
            defaultRateLimit: defaultRateLimit,
            presetRateLimits: presetRateLimits,
            requestsPerTip: requestsPerTip,
            requestPerCurrency: requestPerCurrency
        )
    }

    /// The descriptor of a sink plugin: role ``PluginRole/sink``, no request budget.
    public static func sink(type: String, summary: String, capabilities: [String]) -> PluginDescriptor {
        PluginDescriptor(
            type: type,
            role: .sink,
            summary: summary,
            chainCapabilities: [],
            quotesPrices: false,
            sinkFeatures: capabilities,
            defaultRateLimit: nil,
            presetRateLimits: [:],
            requestsPerTip: 1,
            requestPerCurrency: false
        )
    }
}

/// A plugin's typed options, read with an ``ObjectReader`` that records every problem and the option schema.
public protocol PluginOptions: Sendable {
    /// Reads the options. Record problems in `reader.context`; never throw or crash. Read every key
    /// unconditionally so the schema is complete; do not call `finish()` (the registry does).
    init(from reader: ObjectReader)
}

/// A provider plugin's options: what the planner and the config checks need to know of them besides the values.
public protocol ProviderOptions: PluginOptions {
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

extension ProviderOptions {
    public var defaultRateLimit: RateLimit? { nil }
    public var batchSize: Int? { nil }
    public var priceCurrencies: [String]? { nil }
    public var pushAddresses: Int? { nil }
}

/// A provider plugin: one config `type` that builds a chain provider, a price provider, or both.
public protocol ProviderPlugin: SendableMetatype {
    /// Its options.
    associatedtype Options: ProviderOptions
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

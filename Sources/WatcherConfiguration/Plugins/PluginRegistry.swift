import WatcherCore
import WatcherJSON

/// The compile-time registry of plugins, keyed by the config `type`. A value, not a global: `main` builds
/// ``builtIn`` (in `WatcherApp`) and passes it down; tests build their own.
public struct PluginRegistry: Sendable {
    /// A registered plugin, type-erased.
    public struct Entry: Sendable {
        /// The catalog facts.
        public let descriptor: PluginDescriptor
        let decode: @Sendable (ObjectReader) -> any Sendable
        let chain: (@Sendable (String, any Sendable, PluginContext) throws -> (any ChainProvider)?)?
        let price: (@Sendable (String, any Sendable, PluginContext) throws -> (any PriceProvider)?)?
        let sink: (@Sendable (String, any Sendable, PluginContext) throws -> any Sink)?

        /// The options schema, read from an empty options object.
        public var optionSchema: [OptionSchema] {
            let reader = ObjectReader(.object([]), at: .root, context: ConfigContext(environment: [:]))
            _ = decode(reader)
            return reader.schema
        }
    }

    /// Entries by type.
    public private(set) var entries: [String: Entry] = [:]

    /// An empty registry.
    public init() {}

    /// Registers a provider plugin.
    public mutating func register<P: ProviderPlugin>(_ plugin: P.Type) {
        precondition(entries[P.descriptor.type] == nil, "plugin type '\(P.descriptor.type)' registered twice")
        entries[P.descriptor.type] = Entry(
            descriptor: P.descriptor,
            decode: { P.Options(from: $0) },
            chain: { id, options, context in
                guard let options = options as? P.Options else { return nil }
                return try P.makeChainProvider(id: id, options: options, context: context)
            },
            price: { id, options, context in
                guard let options = options as? P.Options else { return nil }
                return try P.makePriceProvider(id: id, options: options, context: context)
            },
            sink: nil
        )
    }

    /// Registers a sink plugin.
    public mutating func register<S: SinkPlugin>(sink plugin: S.Type) {
        precondition(entries[S.descriptor.type] == nil, "plugin type '\(S.descriptor.type)' registered twice")
        entries[S.descriptor.type] = Entry(
            descriptor: S.descriptor,
            decode: { S.Options(from: $0) },
            chain: nil,
            price: nil,
            sink: { id, options, context in
                guard let options = options as? S.Options else {
                    throw PluginError(message: "sink \(id): options of the wrong type")
                }
                return try S.make(id: id, options: options, context: context)
            }
        )
    }

    /// Known types for `roles`, sorted.
    public func types(for roles: Set<PluginRole>) -> [String] {
        entries.values.filter { roles.contains($0.descriptor.role) }.map(\.descriptor.type).sorted()
    }

    /// All entries sorted by role, then type.
    public var sortedEntries: [Entry] {
        let order = PluginRole.allCases
        return entries.values.sorted {
            let l = order.firstIndex(of: $0.descriptor.role) ?? 0
            let r = order.firstIndex(of: $1.descriptor.role) ?? 0
            return l == r ? $0.descriptor.type < $1.descriptor.type : l < r
        }
    }
}

import WatcherCore
import WatcherJSON

extension ConfigLoader {
    /// Decodes a plugin's `options` through the registry entry for `type`.
    func readPlugin(_ entryReader: ObjectReader, id: String?, roles: Set<PluginRole>, what: String) -> PluginInstance? {
        let context = entryReader.context
        let type = entryReader.string("type", required: true, doc: "The plugin type.")
        let optionsReader = entryReader.object("options", doc: "The plugin's own options.")
        guard let type else { return nil }
        guard let entry = registry.entries[type], roles.contains(entry.descriptor.role) else {
            let known = registry.types(for: roles)
            var message =
                "unknown \(what) type \(JSONValue.quoted(type)); known types: \(known.joined(separator: ", "))"
            if let suggestion = Spelling.suggestion(for: type, among: known) {
                message =
                    "unknown \(what) type \(JSONValue.quoted(type)); did you mean \"\(suggestion)\"? "
                    + "Known types: \(known.joined(separator: ", "))"
            }
            context.error(entryReader.path.key("type"), message)
            return nil
        }
        let options = entry.decode(optionsReader)
        optionsReader.finish()
        entryReader.show("options", optionsReader.resolvedJSON)
        guard let id else { return nil }
        return PluginInstance(id: id, entry: entry, options: options, resolvedOptions: optionsReader.resolvedJSON)
    }

    func readProviders(_ root: ObjectReader) -> [(path: ConfigPath, config: ProviderConfig?)] {
        var result: [(path: ConfigPath, config: ProviderConfig?)] = []
        var shown: [JSONValue] = []
        for (path, value) in root.array("providers", doc: "Chain and price data sources.") {
            let reader = ObjectReader(value, at: path, context: root.context)
            let id = readID(reader)
            let chain = reader.string("chain", default: "btc", doc: "The chain it serves.")
            var plugin = readPlugin(reader, id: id, roles: [.chain, .price], what: "provider")
            plugin?.chain = chain
            let fallback =
                plugin?.optionsRateLimit ?? plugin?.entry.descriptor.defaultRateLimit
                ?? RateLimit(requests: 60, per: .seconds(60))
            let limit = reader.rateLimit("rateLimit", default: fallback, doc: "Request budget (default: the plugin's).")
            reader.finish()
            shown.append(reader.resolvedJSON)
            guard let id, let plugin else {
                result.append((path, nil))
                continue
            }
            let config = ProviderConfig(
                id: id,
                type: plugin.entry.descriptor.type,
                chain: chain,
                rateLimit: limit,
                plugin: plugin
            )
            result.append((path, config))
        }
        root.show("providers", .array(shown))
        return result
    }

    func readSinks(_ root: ObjectReader) -> [(path: ConfigPath, config: SinkConfig?)] {
        var result: [(path: ConfigPath, config: SinkConfig?)] = []
        var shown: [JSONValue] = []
        for (path, value) in root.array("sinks", doc: "Where events go.") {
            if !requiresSinkSecrets, !root.context.unsetReferences(in: value).isEmpty { continue }
            let reader = ObjectReader(value, at: path, context: root.context)
            let id = readID(reader)
            let events = reader.strings(
                "events",
                default: ["*"],
                doc: "Event type globs to deliver, e.g. \"address.*\"."
            )
            for (index, glob) in events.enumerated() where !EventTypeGlob.isValid(glob) {
                root.context.error(
                    path.key("events").index(index),
                    "expected an event type or glob such as \"address.*\", got \(JSONValue.quoted(glob))"
                )
            }
            let plugin = readPlugin(reader, id: id, roles: [.sink], what: "sink")
            reader.finish()
            shown.append(reader.resolvedJSON)
            guard let id, let plugin else {
                result.append((path, nil))
                continue
            }
            result.append(
                (path, SinkConfig(id: id, type: plugin.entry.descriptor.type, events: events, plugin: plugin))
            )
        }
        root.show("sinks", .array(shown))
        return result
    }
}

/// Event type filters such as `address.*`, `block.new` or `*`.
public enum EventTypeGlob {
    /// Whether `glob` is a dotted name whose parts are words or `*`.
    public static func isValid(_ glob: String) -> Bool {
        let parts = glob.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                part == "*"
                    || (!part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            }
    }

    /// Whether `type` matches `glob`; `*` matches one or more trailing parts when last, one part elsewhere.
    public static func matches(_ glob: String, _ type: String) -> Bool {
        let g = glob.split(separator: ".", omittingEmptySubsequences: false)
        let t = type.split(separator: ".", omittingEmptySubsequences: false)
        for (i, part) in g.enumerated() {
            if part == "*", i == g.count - 1 { return t.count >= g.count }
            guard i < t.count, part == "*" || part == t[i] else { return false }
        }
        return g.count == t.count
    }
}

import Foundation
import WatcherCore
import WatcherJSON

/// Loads `watcher.json`: parses it, decodes every entry through the ``PluginRegistry``, checks ids and
/// references, and reports **every** problem with its JSON path. Nothing is constructed here.
public struct ConfigLoader: Sendable {
    /// The plugins `type` values resolve against.
    public var registry: PluginRegistry
    /// The environment `${NAME}` references resolve against.
    public var environment: [String: String]

    /// Whether `${NAME}` references in `sinks` must resolve. Commands that only read the store or ask providers
    /// (`blocks`, `events list`, …) set it to `false`: a sink whose variables are unset is then left out of the
    /// config instead of failing the command, since it is never used there.
    public var requiresSinkSecrets = true

    /// The largest config file read: a bigger one is refused before it is read.
    public static let maxFileBytes = 32 << 20

    /// Creates a loader.
    public init(registry: PluginRegistry, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.registry = registry
        self.environment = environment
    }

    /// Loads a config file. Relative `storage.path` values are resolved against the file's directory.
    /// - Throws: ``ConfigError`` listing every problem.
    public func load(file: String) throws(ConfigError) -> WatcherConfig {
        if let problem = ConfigFile.problem(file) {
            throw ConfigError(file: file, issues: [ConfigIssue(path: .root, message: problem)])
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
        if let size, size > Self.maxFileBytes {
            throw ConfigError(
                file: file,
                issues: [
                    ConfigIssue(
                        path: .root,
                        message: "config file \(file) has \(size) bytes; the limit is \(Self.maxFileBytes) "
                            + "(32 MiB, room for several hundred thousand addresses)"
                    )
                ]
            )
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ConfigError(
                file: file,
                issues: [ConfigIssue(path: .root, message: "config file \(file) cannot be read")]
            )
        }
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        return try load(bytes: Array(data), file: file, baseDirectory: directory)
    }

    /// Loads config text.
    /// - Throws: ``ConfigError`` listing every problem.
    public func load(bytes: [UInt8], file: String? = nil, baseDirectory: String? = nil) throws(ConfigError)
        -> WatcherConfig
    {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw ConfigError(file: file, issues: [ConfigIssue(path: .root, message: "invalid JSON at \(error)")])
        }
        let context = ConfigContext(environment: environment)
        let root = ObjectReader(document, at: .root, context: context)
        if !root.isPresent, context.issues.isEmpty {
            context.error(.root, "expected an object, got \(document.typeDescription)")
        }

        let storageReader = root.object("storage", doc: "Where state is kept.")
        let storage = readStorage(storageReader, baseDirectory: baseDirectory)
        root.show("storage", storageReader.resolvedJSON)
        let providers = readProviders(root)
        let sinks = readSinks(root)
        let watches = readWatches(root, providers: providers)
        root.finish()
        checkUniqueIDs(providers.map { ($0.path, $0.config?.id) }, kind: "provider", context: context)
        checkUniqueIDs(watches.map { ($0.path, $0.config?.id) }, kind: "watch", context: context)
        checkUniqueIDs(sinks.map { ($0.path, $0.config?.id) }, kind: "sink", context: context)
        if sinks.isEmpty, root.isPresent {
            context.warning(.root.key("sinks"), "no sinks configured: events are kept in the log but go nowhere")
        }

        guard !context.hasErrors, let storage else { throw ConfigError(file: file, issues: context.issues) }
        return WatcherConfig(
            storage: storage,
            providers: providers.compactMap(\.config),
            watches: watches.compactMap(\.config),
            sinks: sinks.compactMap(\.config),
            resolved: root.resolvedJSON,
            warnings: context.issues.filter { $0.severity == .warning },
            document: document
        )
    }

    private func readStorage(_ reader: ObjectReader, baseDirectory: String?) -> StorageSettings? {
        let path = reader.string("path", default: "./watcher-data", doc: "The data directory (LMDB environment).")
        let mapSize = reader.int(
            "mapSize",
            default: 256 << 20,
            range: (1 << 20)...(1 << 40),
            doc: "Initial LMDB map size in bytes (address space, not disk)."
        )
        let maxMapSize = reader.int(
            "maxMapSize",
            default: 16 << 30,
            range: (1 << 20)...(1 << 44),
            doc: "How far the map may grow when it fills up."
        )
        let durability = reader.choice(
            "durability",
            ["full", "nometasync"],
            default: "full",
            doc: "Commit flushing: full, or nometasync (an OS crash may lose the last commit)."
        )
        let keepHeaders = reader.int(
            "keepHeaders",
            default: 100,
            range: 20...10_000,
            doc: "Block headers kept per chain."
        )
        let retention = reader.duration(
            "eventRetention",
            default: .seconds(7 * 86_400),
            doc: "Events older than this are trimmed even if a sink still lags."
        )
        reader.finish()
        if path.trimmingCharacters(in: .whitespaces).isEmpty {
            reader.context.error(
                reader.path.key("path"),
                "expected a directory path such as \"./watcher-data\", got an empty string"
            )
            return nil
        }
        guard !reader.context.hasErrors(under: reader.path) else { return nil }
        var resolvedPath = path
        if !path.hasPrefix("/"), let baseDirectory, !baseDirectory.isEmpty {
            resolvedPath = URL(fileURLWithPath: baseDirectory).appendingPathComponent(path).standardizedFileURL.path
        }
        return StorageSettings(
            path: resolvedPath,
            mapSize: mapSize,
            maxMapSize: max(mapSize, maxMapSize),
            durability: durability,
            keepHeaders: keepHeaders,
            eventRetention: retention == .zero ? nil : retention
        )
    }

    private func checkUniqueIDs(_ ids: [(ConfigPath, String?)], kind: String, context: ConfigContext) {
        var seen: [String: ConfigPath] = [:]
        for (path, id) in ids {
            guard let id else { continue }
            if let first = seen[id] {
                context.error(path.key("id"), "duplicate \(kind) id \"\(id)\" (first used at \(first))")
            } else {
                seen[id] = path
            }
        }
    }

    /// Checks an `id`: present, a short slug.
    func readID(_ reader: ObjectReader) -> String? {
        guard let id = reader.string("id", required: true, doc: "A unique id.") else { return nil }
        let allowed = id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        guard !id.isEmpty, id.count <= 64, allowed else {
            reader.context.error(
                reader.path.key("id"),
                "expected an id of 1 to 64 letters, digits, '-', '_' or '.', got \(JSONValue.quoted(id))"
            )
            return nil
        }
        return id
    }
}

import ArgumentParser
import Foundation
import WatcherCore

/// The options every config-reading command shares.
public struct ConfigOptions: ParsableArguments {
    /// The config file.
    @Option(name: [.customShort("c"), .long], help: "Path to the config file.")
    public var config: String = "./watcher.json"

    public init() {}

    /// Loads and validates the config.
    /// - Throws: ``CommandFailure`` with exit code 2 listing every problem.
    public func load(registry: PluginRegistry = .builtIn) throws -> WatcherConfig {
        try Self.load(file: config, registry: registry)
    }

    /// Loads and validates a config file.
    /// - Throws: ``CommandFailure`` with exit code 2 listing every problem.
    public static func load(file: String, registry: PluginRegistry = .builtIn) throws -> WatcherConfig {
        do {
            return try ConfigLoader(registry: registry).load(file: file)
        } catch {
            throw CommandFailure.usage(error.description)
        }
    }
}

import ArgumentParser
import Foundation
import WatcherConfiguration
import WatcherCore

/// The options every config-reading command shares.
public struct ConfigOptions: ParsableArguments {
    /// The config file.
    @Option(name: [.customShort("c"), .long], help: "Path to the config file.")
    public var config: String = "./watcher.json"

    public init() {}

    /// Loads and validates the config.
    /// - Parameter needsSinks: `false` for commands that never deliver (they read the store or ask providers): a
    ///   sink whose `${NAME}` variables are unset is left out instead of failing the command.
    /// - Throws: ``CommandFailure`` with exit code 2 listing every problem.
    public func load(registry: PluginRegistry = CommandPlugins.registry, needsSinks: Bool = true) throws
        -> WatcherConfig
    {
        try Self.load(file: config, registry: registry, needsSinks: needsSinks)
    }

    /// Loads and validates a config file.
    /// - Throws: ``CommandFailure`` with exit code 2 listing every problem.
    public static func load(
        file: String,
        registry: PluginRegistry = CommandPlugins.registry,
        needsSinks: Bool = true
    ) throws -> WatcherConfig {
        var loader = ConfigLoader(registry: registry)
        loader.requiresSinkSecrets = needsSinks
        do {
            return try loader.load(file: file)
        } catch {
            throw CommandFailure.usage(error.description)
        }
    }
}

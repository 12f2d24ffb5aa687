import WatcherConfiguration
import WatcherCore
import WatcherPlugins

/// The plugins the running command sees: ``PluginRegistry/builtIn``, plus those a binary of your own passes to
/// ``WatcherCommand/main(providers:sinks:arguments:)``.
///
/// ArgumentParser builds each command from its arguments, so the registry cannot be passed to an initializer; it
/// is bound for the command's task instead, and every command reads it here: config loading (`run`, `check`,
/// `probe`, `blocks`, `accounts`, …) through ``ConfigOptions`` and the catalog through `watcher plugins`.
public enum CommandPlugins {
    /// The registry of the current command (the built-ins unless bound).
    @TaskLocal public static var registry: PluginRegistry = .builtIn

    /// The built-ins plus `providers` and `sinks`.
    /// - Precondition: no type is registered twice (a plugin's `type` must differ from every built-in's).
    public static func builtIn(
        plus providers: [any ProviderPlugin.Type],
        sinks: [any SinkPlugin.Type] = []
    ) -> PluginRegistry {
        var registry = PluginRegistry.builtIn
        for plugin in providers { registry.register(plugin) }
        for plugin in sinks { registry.register(sink: plugin) }
        return registry
    }
}

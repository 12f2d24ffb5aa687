import BlockbookProvider
import CoinDeskProvider
import JSONPriceProvider
import RawAddrProvider
import WatcherCore
import WatcherPostgres
import WatcherSinks

extension PluginRegistry {
    /// Every plugin compiled into this build. An out-of-tree build registers its own on top of these.
    public static var builtIn: PluginRegistry {
        var registry = PluginRegistry()
        registry.register(BlockbookPlugin.self)
        registry.register(RawAddrPlugin.self)
        registry.register(CoinDeskPlugin.self)
        registry.register(JSONPricePlugin.self)
        registry.register(sink: StdoutSinkPlugin.self)
        registry.register(sink: FileSinkPlugin.self)
        registry.register(sink: WebhookSinkPlugin.self)
        registry.register(sink: PostgresSinkPlugin.self)
        return registry
    }
}

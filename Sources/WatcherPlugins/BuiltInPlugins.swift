import BitcoindAdapter
import BlockbookAdapter
import CoinDeskAdapter
import ElectrumAdapter
import JSONPriceAdapter
import RawAddrAdapter
import WatcherConfiguration
import WatcherCore
import WatcherPostgres
import WatcherSinks

extension PluginRegistry {
    /// Every plugin compiled into this build: the six provider adapters and the four sinks. The CLI starts from
    /// it (an out-of-tree build registers its own on top, `WatcherCommand.main(providers:sinks:)`), and so does the
    /// config fuzzer, so that every plugin's options are fuzzed.
    public static var builtIn: PluginRegistry {
        var registry = PluginRegistry()
        registry.register(BlockbookPlugin.self)
        registry.register(RawAddrPlugin.self)
        registry.register(CoinDeskPlugin.self)
        registry.register(JSONPricePlugin.self)
        registry.register(BitcoindPlugin.self)
        registry.register(ElectrumPlugin.self)
        registry.register(sink: StdoutSinkPlugin.self)
        registry.register(sink: FileSinkPlugin.self)
        registry.register(sink: WebhookSinkPlugin.self)
        registry.register(sink: PostgresSinkPlugin.self)
        return registry
    }
}

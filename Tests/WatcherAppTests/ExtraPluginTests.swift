import CoinDeskAdapter
import Foundation
import Testing
import WatcherApp
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherTestSupport

/// A plugin registered the way an out-of-tree binary does (`WatcherCommand.main(providers:)`) is seen by what
/// every command goes through: config loading and the catalog. Without it, the same config is refused.
struct ExtraPluginTests {
    /// A plugin from "another package": the CoinDesk shape under a type of its own.
    enum HouseFeedPlugin: ProviderPlugin {
        typealias Options = CoinDeskPlugin.Options
        static let descriptor = PluginDescriptor.provider(
            type: "house-feed",
            summary: "The house price feed (CoinDesk shape).",
            prices: true,
            defaultRateLimit: RateLimit(requests: 6, per: .seconds(60), burst: 1, concurrency: 1)
        )
        static func makePriceProvider(id: String, options: Options, context: PluginContext) throws
            -> (any PriceProvider)?
        {
            try CoinDeskPlugin.makePriceProvider(id: id, options: options, context: context)
        }
    }

    static let config = """
        {"storage": {"path": "./data"},
         "providers": [{"id": "house", "type": "house-feed", "options": {"url": "https://prices.example"}}],
         "watches": [{"id": "usd", "type": "price", "currency": "USD", "providers": ["house"]}],
         "sinks": [{"id": "out", "type": "stdout"}]}
        """

    @Test func aCommandSeesPluginsBoundForIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write("watcher.json", Self.config)
        var options = ConfigOptions()
        options.config = path

        let refused = #expect(throws: CommandFailure.self) { try options.load() }
        #expect(refused?.message.contains(#"providers[0].type"#) == true)
        #expect(refused?.message.contains("1 error") == true)

        let registry = CommandPlugins.builtIn(plus: [HouseFeedPlugin.self])
        let config = try CommandPlugins.$registry.withValue(registry) { try options.load() }
        #expect(config.providers.map(\.type) == ["house-feed"])
        #expect(config.providers.first?.rateLimit.requests == 6)
    }

    @Test func theCatalogListsThemBesideTheBuiltIns() {
        let registry = CommandPlugins.builtIn(plus: [HouseFeedPlugin.self])
        let types = Set(registry.entries.keys)
        #expect(types == Set(PluginRegistry.builtIn.entries.keys).union(["house-feed"]))
        let catalog = PluginCatalog.json(registry).serialized(pretty: false)
        #expect(catalog.contains(#""type":"house-feed""#))
        #expect(catalog.contains("The house price feed"))
    }
}

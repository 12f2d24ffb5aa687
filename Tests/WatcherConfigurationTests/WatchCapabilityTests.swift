import Testing
import WatcherConfiguration
import WatcherCore
import WatcherPlugins

/// Every provider of a watch must have each chain capability the watch's type needs, read from the typed
/// ``ChainCapabilities`` of its descriptor: checked here with a plugin that only knows the tip.
struct WatchCapabilityTests {
    enum TipOnlyPlugin: ProviderPlugin {
        struct Options: ProviderOptions {
            init(from reader: ObjectReader) {}
        }

        static let descriptor = PluginDescriptor.provider(
            type: "tiponly",
            summary: "Only the tip.",
            chain: [.tip],
            defaultRateLimit: RateLimit(requests: 6, per: .seconds(60))
        )
    }

    static func errors(_ watch: String) -> [String] {
        var registry = PluginRegistry.builtIn
        registry.register(TipOnlyPlugin.self)
        let json = """
            {"providers": [{"id": "t", "type": "tiponly"}], "watches": [\(watch)], "sinks": []}
            """
        do {
            _ = try ConfigLoader(registry: registry, environment: [:]).load(bytes: Array(json.utf8))
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func namesEveryMissingCapability() {
        let address =
            #"{"id": "a", "type": "address", "providers": ["t"], "addresses": ["1BoatSLRHtKNngkdXEeobR76b53LETtpyT"]}"#
        #expect(
            Self.errors(address) == [
                #"watches[0].providers[0]: provider "t" (tiponly) cannot serve address watches: it lacks address summaries and address histories"#
            ]
        )
        #expect(
            Self.errors(#"{"id": "b", "type": "blocks", "providers": ["t"]}"#) == [
                #"watches[0].providers[0]: provider "t" (tiponly) cannot serve blocks watches: it lacks block headers"#
            ]
        )
    }

    @Test func requirementsPerWatchType() {
        #expect(WatchConfig.Kind.blocks.requiredChainCapabilities == [.tip, .block])
        #expect(WatchConfig.Kind.address.requiredChainCapabilities == [.address, .addressTransactions])
        #expect(WatchConfig.Kind.tx.requiredChainCapabilities == [.transaction])
        #expect(WatchConfig.Kind.price.requiredChainCapabilities.isEmpty)
        // The built-in chain providers: Blockbook serves every chain watch, rawaddr no blocks or tx watches.
        let blockbook = PluginRegistry.builtIn.entries["blockbook"]?.descriptor.chainCapabilities ?? []
        let rawaddr = PluginRegistry.builtIn.entries["rawaddr"]?.descriptor.chainCapabilities ?? []
        for kind in [WatchConfig.Kind.blocks, .address, .tx] {
            #expect(blockbook.isSuperset(of: kind.requiredChainCapabilities), "\(kind)")
        }
        #expect(rawaddr.isSuperset(of: WatchConfig.Kind.address.requiredChainCapabilities))
        #expect(!rawaddr.isSuperset(of: WatchConfig.Kind.blocks.requiredChainCapabilities))
        #expect(!rawaddr.isSuperset(of: WatchConfig.Kind.tx.requiredChainCapabilities))
    }
}

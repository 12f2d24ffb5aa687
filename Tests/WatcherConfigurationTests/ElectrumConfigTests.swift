import Testing
import WatcherConfiguration
import WatcherCore
import WatcherPlugins

/// An `electrum` provider in a config: an address index with push, and no block contents.
struct ElectrumConfigTests {
    static func load(strategy: String) throws -> WatcherConfig {
        let json = """
            {"storage": {"path": "/tmp/unused"},
             "providers": [{"id": "el", "type": "electrum", "chain": "btc",
                            "options": {"url": "tcp://127.0.0.1:50001"}}],
             "watches": [{"id": "shop", "type": "address", "providers": ["el"], "strategy": "\(strategy)",
                          "addresses": ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"]}],
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    @Test func aScanOnAnElectrumServerIsPolledWithAWarning() throws {
        let scanned = try Self.load(strategy: "scan")
        #expect(
            scanned.warnings.map(\.description).contains(
                "watches[0].strategy: provider \"el\" (electrum) serves no block transactions, so it cannot scan "
                    + "blocks: the watch is polled instead (write \"poll\" or \"auto\", or put a bitcoind or blockbook "
                    + "provider first)"
            )
        )
        let plan = JobPlan(config: scanned)
        #expect(plan.jobs.contains { $0.work == .addresses(chain: "btc", watch: "shop", strategy: .poll) })
        #expect(plan.jobs.contains { $0.work == .push(chain: "btc", addresses: 1_000_000) })
        let polled = try Self.load(strategy: "poll")
        #expect(!polled.warnings.map(\.description).contains { $0.contains("cannot scan") })
    }
}

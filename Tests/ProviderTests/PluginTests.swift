import BlockbookAdapter
import CoinDeskAdapter
import JSONPriceAdapter
import Logging
import RawAddrAdapter
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherHTTP
import WatcherPlugins
import WatcherTesting

/// The plugins build their providers from config, and what they declare matches what they do.
@Suite("Provider plugins")
struct PluginTests {
    /// A context on the real transport; nothing here is fetched.
    static func context(_ http: any HTTPFetching) -> PluginContext {
        PluginContext(http: http, logger: Logger(label: "test"), dataDirectory: "/tmp", time: .system)
    }

    func load(_ providers: String) throws(ConfigError) -> WatcherConfig {
        try ConfigLoader(registry: .builtIn, environment: ["KEY": "s3cret"])
            .load(bytes: Array(#"{"providers": [\#(providers)], "sinks": []}"#.utf8))
    }

    func issues(_ providers: String) -> [String] {
        do {
            _ = try load(providers)
            return []
        } catch {
            return error.issues.filter { $0.severity == .error }.map(\.description)
        }
    }

    @Test func eachPluginBuildsItsRoles() async throws {
        let config = try load(
            """
            {"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example", "headers": {"api-key": "${KEY}"}}},
            {"id": "bci", "type": "rawaddr", "options": {"batchSize": 20}},
            {"id": "cd", "type": "coindesk"},
            {"id": "cb", "type": "json-price", "options": {"preset": "coinbase"}},
            {"id": "mine", "type": "json-price",
             "options": {"url": "https://feed.example/price/{currency_lower}", "pricePath": "last.price", "timePath": "last.time"}}
            """
        )
        try await FixtureServer.withTransport { http in
            let built = try config.providers.map { provider in
                (
                    provider.id,
                    try provider.plugin.makeChainProvider(context: Self.context(http)),
                    try provider.plugin.makePriceProvider(context: Self.context(http))
                )
            }
            #expect(built.map { $0.1 != nil } == [true, true, false, false, false])
            #expect(built.map { $0.2 != nil } == [true, false, true, true, true])
            #expect((built[1].1 as? RawAddrProvider)?.batchSize == 20)
            #expect(
                (built[4].2 as? JSONPriceProvider)?.feed
                    == JSONPriceFeed(
                        url: "https://feed.example/price/{currency_lower}",
                        pricePath: "last.price",
                        timePath: "last.time"
                    )
            )
        }
        #expect(config.provider("cb")?.rateLimit == JSONPricePreset.coinbase.rateLimit)
        #expect(config.provider("bci")?.rateLimit == RawAddrPlugin.descriptor.defaultRateLimit)
    }

    @Test func websocketConnectionsSetThePushCapacity() async throws {
        let config = try load(
            #"{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example", "websocket": true, "#
                + #""websocketConnections": 3}}"#
        )
        #expect(config.provider("bb")?.pushAddresses == 3_000)
        try await FixtureServer.withTransport { http in
            let provider = try config.providers[0].plugin.makeChainProvider(context: Self.context(http))
            let push = try #require((provider as? BlockbookProvider)?.pushConnection)
            #expect(push.connections == 3)
            #expect(push.maxAddresses == 3_000)
            #expect(push.url == "wss://bb.example/websocket")
        }
    }

    @Test func declaredCapabilitiesAreTheProvidersOwn() async throws {
        try await FixtureServer.withTransport { http in
            let bb = BlockbookProvider(id: "bb", baseURL: "https://bb.example", http: http)
            #expect(Set(bb.capabilities.names + ["prices"]) == Set(BlockbookPlugin.descriptor.capabilities))
            let bci = RawAddrProvider(id: "bci", baseURL: "https://bci.example", http: http)
            #expect(Set(bci.capabilities.names) == Set(RawAddrPlugin.descriptor.capabilities))
        }
    }

    @Test func feedPathsAreCheckedAtLoad() {
        let problems = issues(
            #"{"id": "f", "type": "json-price", "options": {"preset": "kraken", "pricePath": "result..c[x]"}}"#
        )
        #expect(problems.count == 1)
        #expect(problems.first?.contains("providers[0].options.pricePath") == true)
        #expect(!issues(#"{"id": "f", "type": "json-price", "options": {"pricePath": "a.b"}}"#).isEmpty)
    }

    @Test(arguments: ["data.amount", "result.*.c[0]", "bitcoin.{currency_lower}", "a[0][1].b"])
    func validPaths(_ text: String) {
        #expect(JSONPath(JSONPriceFeed.fill(text, currency: "USD")) != nil)
    }

    @Test(arguments: ["", ".a", "a.", "a[", "a[-1]", "a[0]x", "[0]"])
    func invalidPaths(_ text: String) {
        #expect(JSONPath(text) == nil)
    }
}

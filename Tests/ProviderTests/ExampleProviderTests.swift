import HTTPTypes
import Logging
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherHTTP
import WatcherTesting

// The worked example of docs/writing-a-provider.md, kept compiling and passing here: a chain provider that
// only knows the tip, from any blockchain.info-style `/latestblock`.

/// The tip from a blockchain.info-style `GET /latestblock`.
struct LatestBlockProvider: ChainProvider {
    let id: String
    var capabilities: ChainCapabilities { LatestBlockPlugin.descriptor.chainCapabilities }
    let http: ProviderHTTP

    init(id: String, baseURL: String, http: any HTTPFetching, options: HTTPOptions = .standard) {
        self.id = id
        self.http = ProviderHTTP(provider: id, baseURL: baseURL, http: http, options: options)
    }

    func tip() async throws -> BlockRef {
        let response = try await http.get("/latestblock")
        try http.checkStatus(response)  // 429 → rateLimited (with Retry-After), 5xx → unavailable
        guard response.status == 200 else {
            throw ProviderError.unavailable(
                provider: id,
                status: response.status.code,
                detail: ProviderHTTP.errorText(response.body)
            )
        }
        let json = try http.json(response)  // not JSON, cut short → invalidResponse
        // A missing or mistyped field → invalidResponse naming its path.
        return BlockRef(height: try json.required("height").int(), hash: try json.required("hash").string())
    }
}

/// Its plugin: the config `type`, options and catalog facts.
enum LatestBlockPlugin: ProviderPlugin {
    struct Options: ProviderOptions {
        var url: String
        var http: HTTPOptions

        init(from reader: ObjectReader) {
            url = reader.url("url", required: true, doc: "Base URL of the API.") ?? ""
            http = HTTPOptions(from: reader)
        }
    }

    static let descriptor = PluginDescriptor.provider(
        type: "latestblock",
        summary: "The tip from any blockchain.info-style /latestblock.",
        chain: [.tip],
        defaultRateLimit: RateLimit(requests: 6, per: .seconds(60))
    )

    static func makeChainProvider(id: String, options: Options, context: PluginContext) throws -> (any ChainProvider)? {
        LatestBlockProvider(id: id, baseURL: options.url, http: context.http, options: options.http)
    }
}

@Suite("The writing-a-provider example")
struct ExampleProviderTests {
    @Test func passesTheContract() async throws {
        try await ChainProviderContract.run { baseURL, http in
            LatestBlockProvider(id: "latest", baseURL: baseURL, http: http)
        }
    }

    @Test func buildsFromConfig() async throws {
        var registry = PluginRegistry()
        registry.register(LatestBlockPlugin.self)
        let config = try ConfigLoader(registry: registry, environment: [:])
            .load(
                bytes: Array(
                    #"{"providers": [{"id": "t", "type": "latestblock", "options": {"url": "https://x.example"}}]}"#
                        .utf8
                )
            )
        try await FixtureServer.withTransport { http in
            let context = PluginContext(http: http, logger: Logger(label: "test"), dataDirectory: "/tmp", time: .system)
            let provider = try #require(try config.providers.first?.plugin.makeChainProvider(context: context))
            #expect(provider.capabilities == [.tip] && provider.id == "t")
        }
    }
}

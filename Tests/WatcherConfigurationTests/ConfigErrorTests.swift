import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherTestSupport

/// Bad configs: each case asserts the exact JSON path and message, and that loading reports every problem.
struct ConfigErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let json: String
        let path: String
        let message: String
        var testDescription: String { name }
    }

    static let provider = ConfigText.provider
    static let price = ConfigText.price
    static let sink = ConfigText.sink

    /// A config with one part replaced.
    static func config(
        storage: String = #"{"path": "./data"}"#,
        providers: String? = nil,
        watches: String = "[]",
        sinks: String? = nil
    ) -> String {
        ConfigText.config(storage: storage, providers: providers, watches: watches, sinks: sinks)
    }

    static func watch(_ body: String) -> String { config(watches: "[\(body)]") }

    /// Every case, in order: the root, storage and providers (`ConfigErrorTests+Providers.swift`), then watches and
    /// sinks (`ConfigErrorTests+Watches.swift`), then wallets (`ConfigErrorTests+Wallets.swift`).
    static let cases: [Case] = rootStorageAndProviderCases + watchAndSinkCases + walletCases

    static let environment = [
        "WATCHER_TEST_BAD_SECRET": "not base64 !!", "WATCHER_TEST_SECRET": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "WATCHER_TEST_CRLF": "s3cret\r\nX-Injected: 1",
    ]

    static func errors(_ json: String) -> [ConfigIssue] {
        do {
            _ = try ConfigLoader(registry: .builtIn, environment: environment).load(bytes: Array(json.utf8))
            return []
        } catch {
            return error.errors
        }
    }

    /// Expects loading `testCase.json` to report `testCase.message` at `testCase.path`.
    static func expectReported(_ testCase: Case, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = errors(testCase.json)
        #expect(
            found.contains { $0.path.description == testCase.path && $0.message == testCase.message },
            "got: \(found.map(\.description))",
            sourceLocation: sourceLocation
        )
    }

    @Test(arguments: cases)
    func reportsPathAndMessage(_ testCase: Case) {
        Self.expectReported(testCase)
    }

    @Test func atLeastTwentyFiveCases() {
        #expect(Self.cases.count >= 25)
    }

    @Test func websocketConnectionsWithoutTheWebsocketIsAWarning() throws {
        let providers =
            #"[{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example", "websocket": false, "#
            + #""websocketConnections": 4}}]"#
        let config = try ConfigLoader(registry: .builtIn, environment: [:])
            .load(bytes: Array(Self.config(providers: providers).utf8))
        #expect(
            config.warnings.map(\.description) == [
                #"providers[0].options.websocketConnections: has no effect with "websocket": false"#
            ]
        )
    }

    @Test func reportsEveryErrorNotOnlyTheFirst() {
        let json = Self.config(
            storage: #"{"durabilty": "full"}"#,
            providers: #"[{"id": "cd", "type": "coindesk", "options": {"url": "ftp://x"}}]"#,
            watches: #"[{"id": "w", "type": "blocks", "providers": ["nope"]}]"#
        )
        let paths = Self.errors(json).map(\.path.description)
        #expect(paths == ["storage.durabilty", "providers[0].options.url", "watches[0].providers[0]"])
    }

    @Test func validConfigLoadsWithDefaults() throws {
        let json = Self.config(
            watches:
                #"[{"id": "w", "type": "address", "providers": ["bb"], "addresses": ["bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?label=Boat"]}]"#
        )
        let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
        #expect(config.providers.map(\.id) == ["bb", "cb"])
        #expect(
            config.provider("bb")?.rateLimit == RateLimit(requests: 20, per: .seconds(60), burst: 20, concurrency: 4)
        )
        #expect(
            config.provider("cb")?.rateLimit == RateLimit(requests: 60, per: .seconds(60), burst: 10, concurrency: 2)
        )
        let watch = try #require(config.watches.first)
        #expect(watch.addresses == [.init(address: "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", label: "Boat")])
        #expect(watch.confirmations == [1, 3, 6])
        #expect(watch.every == .seconds(120))
        #expect(config.storage.durability == "full")
    }

    @Test func secretsAreResolvedButNeverShown() throws {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        let json = Self.config(
            providers:
                #"[{"id": "cd", "type": "coindesk", "options": {"headers": {"X-Api-Key": "${WATCHER_TEST_SECRET}", "Authorization": "literal-token"}}}]"#,
            sinks:
                #"[{"id": "h", "type": "webhook", "options": {"url": "https://h.example", "secret": "${WATCHER_TEST_SECRET}"}}]"#
        )
        let config = try ConfigLoader(registry: .builtIn, environment: Self.environment).load(bytes: Array(json.utf8))
        let shown = config.resolved.serialized(pretty: true)
        #expect(!shown.contains(secret))
        #expect(!shown.contains("literal-token"))
        #expect(shown.contains("${WATCHER_TEST_SECRET}"))
    }

    @Test func errorsNeverEchoSecretValues() {
        let json = Self.config(
            providers: #"[{"id": "cd", "type": "coindesk", "options": {"url": "${WATCHER_TEST_SECRET}"}}]"#
        )
        let errors = Self.errors(json)
        #expect(errors.map(\.path.description) == ["providers[0].options.url"])
        #expect(!errors.description.contains("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
    }
}

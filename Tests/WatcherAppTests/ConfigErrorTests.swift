import Testing
import WatcherApp
import WatcherCore

/// Bad configs: each case asserts the exact JSON path and message, and that loading reports every problem.
struct ConfigErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let json: String
        let path: String
        let message: String
        var testDescription: String { name }
    }

    static let provider = #"{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example"}}"#
    static let price = #"{"id": "cb", "type": "json-price", "options": {"preset": "coinbase"}}"#
    static let sink = #"{"id": "out", "type": "stdout"}"#

    /// A config with one part replaced.
    static func config(
        storage: String = #"{"path": "./data"}"#,
        providers: String? = nil,
        watches: String = "[]",
        sinks: String? = nil
    ) -> String {
        """
        {"storage": \(storage), "providers": \(providers ?? "[\(provider), \(price)]"),
         "watches": \(watches), "sinks": \(sinks ?? "[\(sink)]")}
        """
    }

    static func watch(_ body: String) -> String { config(watches: "[\(body)]") }

    static let cases: [Case] = [
        Case(
            name: "not JSON",
            json: "{\"storage\": ",
            path: "(root)",
            message: "invalid JSON at line 1, column 13: unexpected end of input"
        ),
        Case(name: "root not object", json: "[]", path: "(root)", message: "expected an object, got an array"),
        Case(
            name: "unknown root key",
            json: #"{"sink": []}"#,
            path: "sink",
            message: #"unknown key "sink"; did you mean "sinks"?"#
        ),
        Case(
            name: "storage typo",
            json: config(storage: #"{"pth": "x"}"#),
            path: "storage.pth",
            message: #"unknown key "pth"; did you mean "path"?"#
        ),
        Case(
            name: "storage durability",
            json: config(storage: #"{"durability": "sometimes"}"#),
            path: "storage.durability",
            message: #"expected one of "full", "nometasync", got a string "sometimes""#
        ),
        Case(
            name: "storage map size too small",
            json: config(storage: #"{"mapSize": 1024}"#),
            path: "storage.mapSize",
            message: "expected an integer from 1048576 to 1099511627776, got 1024"
        ),
        Case(
            name: "retention not a duration",
            json: config(storage: #"{"eventRetention": "a week"}"#),
            path: "storage.eventRetention",
            message: #"expected a duration such as "500ms", "30s", "5m" or "1h", got a string "a week""#
        ),
        Case(
            name: "providers not array",
            json: config(providers: "{}"),
            path: "providers",
            message: "expected an array, got an object"
        ),
        Case(
            name: "provider id missing",
            json: config(providers: #"[{"type": "blockbook", "options": {"url": "https://x.example"}}]"#),
            path: "providers[0].id",
            message: #"missing required key "id" (string: A unique id.)"#
        ),
        Case(
            name: "provider bad id",
            json: config(providers: #"[{"id": "b b", "type": "coindesk"}]"#),
            path: "providers[0].id",
            message: #"expected an id of 1 to 64 letters, digits, '-', '_' or '.', got "b b""#
        ),
        Case(
            name: "unknown provider type",
            json: config(providers: #"[{"id": "x", "type": "esplora"}]"#),
            path: "providers[0].type",
            message: #"unknown provider type "esplora"; known types: blockbook, coindesk, json-price, rawaddr"#
        ),
        Case(
            name: "provider type typo",
            json: config(providers: #"[{"id": "x", "type": "blockbok", "options": {"url": "https://x.example"}}]"#),
            path: "providers[0].type",
            message:
                #"unknown provider type "blockbok"; did you mean "blockbook"? Known types: blockbook, coindesk, json-price, rawaddr"#
        ),
        Case(
            name: "sink type used as provider",
            json: config(providers: #"[{"id": "x", "type": "stdout"}]"#),
            path: "providers[0].type",
            message: #"unknown provider type "stdout"; known types: blockbook, coindesk, json-price, rawaddr"#
        ),
        Case(
            name: "ftp url",
            json: config(providers: #"[{"id": "cd", "type": "coindesk", "options": {"url": "ftp://x"}}]"#),
            path: "providers[0].options.url",
            message: #"expected an http(s) URL, got "ftp://x""#
        ),
        Case(
            name: "blockbook url missing",
            json: config(providers: #"[{"id": "bb", "type": "blockbook", "options": {}}]"#),
            path: "providers[0].options.url",
            message: #"missing required key "url" (url: Base URL of the Blockbook instance.)"#
        ),
        Case(
            name: "unknown option",
            json: config(providers: #"[{"id": "ra", "type": "rawaddr", "options": {"batchsize": 10}}]"#),
            path: "providers[0].options.batchsize",
            message: #"unknown key "batchsize"; did you mean "batchSize"?"#
        ),
        Case(
            name: "batch size out of range",
            json: config(providers: #"[{"id": "ra", "type": "rawaddr", "options": {"batchSize": 500}}]"#),
            path: "providers[0].options.batchSize",
            message: "expected an integer from 1 to 100, got 500"
        ),
        Case(
            name: "timeout wrong type",
            json: config(providers: #"[{"id": "cd", "type": "coindesk", "options": {"timeout": 10}}]"#),
            path: "providers[0].options.timeout",
            message: #"expected a duration such as "500ms", "30s", "5m" or "1h", got a number 10"#
        ),
        Case(
            name: "rate limit period",
            json: config(
                providers: #"[{"id": "cd", "type": "coindesk", "rateLimit": {"requests": 5, "per": "1 minute"}}]"#
            ),
            path: "providers[0].rateLimit.per",
            message: #"expected a duration such as "500ms", "30s", "5m" or "1h", got a string "1 minute""#
        ),
        Case(
            name: "rate limit unknown key",
            json: config(providers: #"[{"id": "cd", "type": "coindesk", "rateLimit": {"request": 5}}]"#),
            path: "providers[0].rateLimit.request",
            message: #"unknown key "request"; did you mean "requests"?"#
        ),
        Case(
            name: "duplicate provider id",
            json: config(providers: #"[{"id": "cd", "type": "coindesk"}, {"id": "cd", "type": "coindesk"}]"#),
            path: "providers[1].id",
            message: #"duplicate provider id "cd" (first used at providers[0])"#
        ),
        Case(
            name: "duplicate key",
            json: config(providers: #"[{"id": "cd", "type": "coindesk", "id": "cd2"}]"#),
            path: "providers[0].id",
            message: #"duplicate key "id""#
        ),
        Case(
            name: "json-price without preset needs url",
            json: config(providers: #"[{"id": "jp", "type": "json-price", "options": {"pricePath": "a.b"}}]"#),
            path: "providers[0].options.url",
            message: #"a feed without a preset needs "url""#
        ),
        Case(
            name: "watch type",
            json: watch(#"{"id": "w", "type": "mempool", "providers": ["bb"]}"#),
            path: "watches[0].type",
            message: #"expected one of "blocks", "address", "tx", "price", got a string "mempool""#
        ),
        Case(
            name: "watch references unknown provider",
            json: watch(#"{"id": "w", "type": "blocks", "providers": ["bbb"]}"#),
            path: "watches[0].providers[0]",
            message: #"no provider has id "bbb"; did you mean "bb"?"#
        ),
        Case(
            name: "price watch on chain-only provider",
            json: config(
                providers: #"[{"id": "ra", "type": "rawaddr"}]"#,
                watches: #"[{"id": "p", "type": "price", "providers": ["ra"]}]"#
            ),
            path: "watches[0].providers[0]",
            message: #"provider "ra" (rawaddr) does not serve prices"#
        ),
        Case(
            name: "block watch on price feed",
            json: watch(#"{"id": "w", "type": "blocks", "providers": ["cb"]}"#),
            path: "watches[0].providers[0]",
            message: #"provider "cb" (json-price) does not serve chain data"#
        ),
        Case(
            name: "invalid address",
            json: watch(
                #"{"id": "w", "type": "address", "providers": ["bb"], "addresses": ["1BoatSLRHtKNngkdXEeobR76b53LETtpyU"]}"#
            ),
            path: "watches[0].addresses[0]",
            message: #"invalid address "1BoatSLRHtKNngkdXEeobR76b53LETtpyU": bad base58check checksum"#
        ),
        Case(
            name: "address watch without addresses",
            json: watch(#"{"id": "w", "type": "address", "providers": ["bb"]}"#),
            path: "watches[0].addresses",
            message: #"missing required key "addresses" (array: Addresses or bitcoin: URIs.)"#
        ),
        Case(
            name: "field of another watch type",
            json: watch(#"{"id": "w", "type": "blocks", "providers": ["bb"], "txid": "00"}"#),
            path: "watches[0].txid",
            message: #""txid" belongs to tx watches, not blocks"#
        ),
        Case(
            name: "bad txid",
            json: watch(#"{"id": "t", "type": "tx", "providers": ["bb"], "txid": "xyz"}"#),
            path: "watches[0].txid",
            message: #"expected a 64-hex-digit txid, got "xyz""#
        ),
        Case(
            name: "confirmation threshold",
            json: watch(
                #"{"id": "t", "type": "address", "providers": ["bb"], "addresses": ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"], "confirmations": [0]}"#
            ),
            path: "watches[0].confirmations[0]",
            message: "expected a confirmation count from 1 to 10000, got 0"
        ),
        Case(
            name: "every too short",
            json: watch(#"{"id": "w", "type": "blocks", "providers": ["bb"], "every": "10ms"}"#),
            path: "watches[0].every",
            message: #"expected a duration of at least 1s, got "10ms""#
        ),
        Case(
            name: "changePercent without window",
            json: watch(#"{"id": "p", "type": "price", "providers": ["cb"], "changePercent": 5}"#),
            path: "watches[0].window",
            message: #"changePercent needs a window, e.g. "1h""#
        ),
        Case(
            name: "price level not a number",
            json: watch(#"{"id": "p", "type": "price", "providers": ["cb"], "above": ["100k"]}"#),
            path: "watches[0].above[0]",
            message: "expected a number, got a string"
        ),
        Case(
            name: "sink glob",
            json: config(sinks: #"[{"id": "out", "type": "stdout", "events": ["address..*"]}]"#),
            path: "sinks[0].events[0]",
            message: #"expected an event type or glob such as "address.*", got "address..*""#
        ),
        Case(
            name: "unknown sink type",
            json: config(sinks: #"[{"id": "q", "type": "kafka"}]"#),
            path: "sinks[0].type",
            message: #"unknown sink type "kafka"; known types: file, postgres, stdout, webhook"#
        ),
        Case(
            name: "file sink fsync",
            json: config(
                sinks: #"[{"id": "f", "type": "file", "options": {"path": "e.jsonl", "fsync": "sometimes"}}]"#
            ),
            path: "sinks[0].options.fsync",
            message: #"expected "always" or a duration such as "1s", got "sometimes""#
        ),
        Case(
            name: "stdout format",
            json: config(sinks: #"[{"id": "out", "type": "stdout", "options": {"format": "xml"}}]"#),
            path: "sinks[0].options.format",
            message: #"expected one of "pretty", "jsonl", got a string "xml""#
        ),
        Case(
            name: "missing environment variable",
            json: config(
                sinks:
                    #"[{"id": "h", "type": "webhook", "options": {"url": "https://h.example", "secret": "${WATCHER_TEST_UNSET}"}}]"#
            ),
            path: "sinks[0].options.secret",
            message: "environment variable WATCHER_TEST_UNSET is not set (referenced as ${WATCHER_TEST_UNSET})"
        ),
        Case(
            name: "malformed secret",
            json: config(
                sinks:
                    #"[{"id": "h", "type": "webhook", "options": {"url": "https://h.example", "secret": "${WATCHER_TEST_BAD_SECRET}"}}]"#
            ),
            path: "sinks[0].options.secret",
            message: "expected a secret of the form whsec_<base64>"
        ),
    ]

    static let environment = [
        "WATCHER_TEST_BAD_SECRET": "not base64 !!", "WATCHER_TEST_SECRET": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
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

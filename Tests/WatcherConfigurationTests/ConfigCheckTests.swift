import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherPlugins

/// Configs that parse but can never work: providers without the capability or currency a watch needs, values out
/// of range, fields that only make sense together, duplicate addresses. Each asserts the exact path and message,
/// like ``ConfigErrorTests``.
struct ConfigCheckTests {
    typealias Case = ConfigErrorTests.Case

    static let rawaddr = #"{"id": "ra", "type": "rawaddr"}"#
    static let address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"

    static func config(providers: String? = nil, watches: String) -> String {
        ConfigErrorTests.config(providers: providers, watches: watches)
    }

    static func price(_ fields: String) -> String {
        config(watches: #"[{"id": "p", "type": "price", "providers": ["cb"], \#(fields)}]"#)
    }

    static let cases: [Case] = [
        Case(
            name: "a testnet segwit address on mainnet",
            json: config(
                watches:
                    #"[{"id": "w", "type": "address", "providers": ["bb"], "addresses": ["\#(address)", "tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54"]}]"#
            ),
            path: "watches[0].addresses[1]",
            message: #""tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54" is a testnet address; chain "btc" is mainnet"#
        ),
        Case(
            name: "a testnet base58 address on mainnet",
            json: config(
                watches:
                    #"[{"id": "w", "type": "address", "providers": ["bb"], "addresses": ["mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ"]}]"#
            ),
            path: "watches[0].addresses[0]",
            message: #""mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ" is a testnet address; chain "btc" is mainnet"#
        ),
        Case(
            name: "two blocks watches on one chain",
            json: config(
                watches:
                    #"[{"id": "a", "type": "blocks", "providers": ["bb"]}, {"id": "b", "type": "blocks", "providers": ["bb"]}]"#
            ),
            path: "watches[1].type",
            message:
                #"a second blocks watch for chain "btc" (the first is "a"): one blocks watch per chain announces its blocks"#
        ),
        Case(
            name: "reorgSafety out of range",
            json: config(
                watches:
                    #"[{"id": "w", "type": "address", "providers": ["bb"], "addresses": ["\#(address)"], "reorgSafety": -1}]"#
            ),
            path: "watches[0].reorgSafety",
            message: "expected an integer from 0 to 1000, got -1"
        ),
        Case(
            name: "rawaddr as failover of a blocks watch",
            json: config(
                providers: "[\(ConfigErrorTests.provider), \(rawaddr)]",
                watches: #"[{"id": "tip", "type": "blocks", "providers": ["bb", "ra"]}]"#
            ),
            path: "watches[0].providers[1]",
            message: #"provider "ra" (rawaddr) cannot serve blocks watches: it lacks block headers"#
        ),
        Case(
            name: "rawaddr on a tx watch",
            json: config(
                providers: "[\(rawaddr)]",
                watches:
                    #"[{"id": "t", "type": "tx", "providers": ["ra"], "txid": "\#(String(repeating: "ab", count: 32))"}]"#
            ),
            path: "watches[0].providers[0]",
            message: #"provider "ra" (rawaddr) cannot serve tx watches: it lacks transaction lookups"#
        ),
        Case(
            name: "currency the feed does not quote",
            json: price(#""currency": "JPY""#),
            path: "watches[0].currency",
            message: #"provider "cb" (json-price) does not quote JPY; it quotes USD, GBP, EUR"#
        ),
        Case(
            name: "currency of a failover feed",
            json: config(
                providers:
                    #"[\#(ConfigErrorTests.price), {"id": "k", "type": "json-price", "options": {"preset": "kraken", "currencies": ["usd", "chf"]}}]"#,
                watches: #"[{"id": "p", "type": "price", "providers": ["k", "cb"], "currency": "chf"}]"#
            ),
            path: "watches[0].currency",
            message: #"provider "cb" (json-price) does not quote CHF; it quotes USD, GBP, EUR"#
        ),
        Case(
            name: "above level zero",
            json: price(#""above": [0]"#),
            path: "watches[0].above[0]",
            message: "expected a number greater than 0, got 0"
        ),
        Case(
            name: "second below level negative",
            json: price(#""below": [50000, -5]"#),
            path: "watches[0].below[1]",
            message: "expected a number greater than 0, got -5"
        ),
        Case(
            name: "level too large for a decimal",
            json: price(#""below": [1e999]"#),
            path: "watches[0].below[0]",
            message: "expected a number greater than 0, got 1e999, which is too large"
        ),
        Case(
            name: "level too close to zero for a decimal",
            json: price(#""above": [1e-999]"#),
            path: "watches[0].above[0]",
            message: "expected a number greater than 0, got 1e-999, which is too close to zero to represent"
        ),
        Case(
            name: "changePercent zero",
            json: price(#""changePercent": 0, "window": "1h""#),
            path: "watches[0].changePercent",
            message: "expected a number greater than 0 and at most 1000, got 0"
        ),
        Case(
            name: "changePercent above 1000",
            json: price(#""changePercent": 1500, "window": "1h""#),
            path: "watches[0].changePercent",
            message: "expected a number greater than 0 and at most 1000, got 1500"
        ),
        Case(
            name: "window without changePercent",
            json: price(#""window": "1h""#),
            path: "watches[0].changePercent",
            message: "window needs a changePercent, e.g. 5"
        ),
        Case(
            name: "duplicate address",
            json: config(
                watches:
                    #"[{"id": "a", "type": "address", "providers": ["bb"], "addresses": ["1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "\#(address)", "bitcoin:\#(address.uppercased())?label=Again"]}]"#
            ),
            path: "watches[0].addresses[2]",
            message: #"duplicate address "\#(address)" (first listed at watches[0].addresses[1])"#
        ),
    ]

    @Test(arguments: cases)
    func reportsPathAndMessage(_ testCase: Case) {
        ConfigErrorTests.expectReported(testCase)
    }

    @Test func aBadValueIsNotAlsoReportedAsAMissingPartner() {
        let errors = ConfigErrorTests.errors(Self.price(#""changePercent": -1, "window": "1h""#))
        #expect(
            errors.map(\.description) == [
                "watches[0].changePercent: expected a number greater than 0 and at most 1000, got -1"
            ]
        )
    }

    @Test func everyProviderOfAWatchIsChecked() {
        let json = Self.config(
            providers: "[\(ConfigErrorTests.provider), \(Self.rawaddr), \(ConfigErrorTests.price)]",
            watches: #"[{"id": "tip", "type": "blocks", "providers": ["ra", "bb", "cb", "ra"]}]"#
        )
        #expect(
            ConfigErrorTests.errors(json).map(\.description) == [
                #"watches[0].providers[0]: provider "ra" (rawaddr) cannot serve blocks watches: it lacks block headers"#,
                #"watches[0].providers[2]: provider "cb" (json-price) does not serve chain data"#,
                #"watches[0].providers[3]: provider "ra" (rawaddr) cannot serve blocks watches: it lacks block headers"#,
            ]
        )
    }

    @Test func feedsThatQuoteAnyCurrencyAcceptEveryCode() throws {
        // CoinDesk asks /v1/bpi/currentprice/<CODE>.json beyond USD, GBP and EUR; Blockbook's tickers hold every
        // rate; a json-price feed quotes what its `currencies` option lists.
        let json = Self.config(
            providers: """
                [\(ConfigErrorTests.provider), {"id": "cd", "type": "coindesk"},
                 {"id": "jp", "type": "json-price", "options": {"preset": "coinbase", "currencies": ["USD", "JPY"]}}]
                """,
            watches: #"[{"id": "p", "type": "price", "providers": ["cd", "bb", "jp"], "currency": "jpy"}]"#
        )
        let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
        #expect(config.watches.first?.currencies == ["JPY"])
        #expect(config.provider("cd")?.priceCurrencies == nil)
        #expect(config.provider("bb")?.priceCurrencies == nil)
        #expect(config.provider("jp")?.priceCurrencies == ["USD", "JPY"])
    }

    @Test func validLevelsAndChangeLoad() throws {
        let json = Self.price(
            #""above": [150000.5], "below": [0.01], "changePercent": 1000, "window": "1h""#
        )
        let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
        let watch = try #require(config.watches.first)
        #expect(watch.above == [Decimal(string: "150000.5")!])
        #expect(watch.below == [Decimal(string: "0.01")!])
        #expect(watch.changePercent == 1000)
    }
}

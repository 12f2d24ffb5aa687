import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// `requests.rate.sources` through the real daemon and CLI: a `median` price watch asks three price feeds (three
/// simnets' Coinbase faces through `json-price`, one of them wrong by half), and a fiat request is quoted at the
/// median of their stored quotes, naming each; once two feeds are down and their quotes older than `maxAge`,
/// creation is refused naming them.
@Suite(.timeLimit(.minutes(4)))
struct RequestRateTests {
    static func config(_ chain: Simnet, feeds: [Simnet], data: String) throws -> String {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let prices = feeds.enumerated().map { index, feed in
            """
            {"id": "cb\(index + 1)", "type": "json-price", "options": {"preset": "coinbase",
              "url": "\(feed.baseURL)/v2/prices/BTC-{currency}/spot", "timeout": "2s"},
             "rateLimit": {"requests": 600, "per": "1m", "burst": 10}}
            """
        }
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [
               {"id": "bb", "type": "blockbook", "options": {"url": "\(chain.baseURL)", "timeout": "2s"},
                "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}},
               \(prices.joined(separator: ",\n"))],
             "watches": [
               {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
               {"id": "eur", "type": "price", "providers": ["cb1", "cb2", "cb3"], "median": true, "currency": "EUR",
                "every": "1s"},
               {"id": "shop", "type": "wallet", "providers": ["bb"], "every": "1s", "strategy": "poll",
                "descriptor": "\(WalletHarness.descriptor)", "gap": 3,
                "requests": {"rate": {"sources": ["cb1", "cb2", "cb3"], "maxAge": "8s"}}}
             ],
             "sinks": [{"id": "file", "type": "file", "options": {"path": "\(data)/events.jsonl"}}]}
            """
        let path = "\(data)/watcher.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func create(_ config: String) async throws -> WatcherProcess.Result {
        try await WatcherProcess.run(
            ["requests", "create", "shop", "--amount", "61", "--currency", "EUR", "--json", "--config", config]
        )
    }

    @Test func aFiatRequestIsQuotedAtTheMedianOfItsSourcesAndRefusedOnceTooFewAreFresh() async throws {
        try await Harness.withData(EngineHarness.quiet) { chain, _, data in
            try await Simnet.with(EngineHarness.quiet) { second in
                try await Simnet.with(EngineHarness.quiet) { third in
                    let feeds = [chain, second, third]
                    _ = await chain.setPrices([.eur: 61_000])
                    _ = await second.setPrices([.eur: Decimal(string: "60500.5")!])
                    _ = await third.setPrices([.eur: 30_000])  // a wrong feed
                    let config = try Self.config(chain, feeds: feeds, data: data)
                    let daemon = try WatcherProcess.daemon(config: config)
                    defer { daemon.signal(SIGTERM) }

                    // All three quotes stored and well inside maxAge (on a busy machine a feed can miss a round,
                    // its one-interval budget spent): then the request takes the three.
                    let store = try await eventuallyValue("the store") {
                        try? Store(path: data, options: .init(readOnly: true))
                    }
                    func ages() throws -> [TimeInterval] {
                        try store.read {
                            try $0.sourcePrices(currency: "EUR", providers: ["cb1", "cb2", "cb3"])
                        }.map { Date().timeIntervalSince($0.time) }
                    }
                    try await eventually("three fresh quotes") {
                        let ages = try ages()
                        return ages.count == 3 && ages.allSatisfy { $0 < 4 }
                    }
                    let created = try await Self.create(config)
                    #expect(created.status == 0, "\(created.stderr)")
                    let request = try JSONValue.parse(created.stdout)
                    let amount = try #require(request["amount"])
                    #expect(amount["rate"] == .string("60500.5"), "\(amount)")
                    #expect(amount["rateSource"] == .string("median of cb1, cb2, cb3"))
                    let quotes = amount["quotes"]?.arrayValue?.map {
                        "\($0["provider"]?.stringValue ?? ""):\($0["rate"]?.stringValue ?? "")"
                    }
                    #expect(quotes == ["cb1:61000", "cb2:60500.5", "cb3:30000"])
                    // 61 EUR at 60,500.5 = 100,825.612… sat, rounded up.
                    #expect(request["dueSat"] == .number("100826"), "\(request)")

                    // The watch's own price (its levels, `price.updated`, a request without sources) is the median
                    // (of the three, once a round has all three).
                    try await eventually("the median stored as the price") {
                        let latest = try store.read { try $0.price(currency: "EUR") }
                        return latest?.price == Decimal(string: "60500.5")!
                            && latest?.provider == "median of cb1, cb2, cb3"
                    }

                    // Two feeds fail. Once the store holds their quotes for more than 8 s, the one fresh quote
                    // left is not a majority of three, and creation is refused naming the stale two.
                    let fault = FaultConfiguration(rate: 1, kinds: [.serverError])
                    await second.setFaults(family: .coinbase, fault)
                    await third.setFaults(family: .coinbase, fault)
                    // (Waits for a moment the healthy feed's quote is well inside maxAge: on a busy machine a round
                    // can be late.)
                    try await eventually("the failing feeds' quotes older than 8 s, the healthy one's fresh") {
                        let ages = try ages()
                        return ages.count == 3 && ages[0] < 4 && ages[1] > 8 && ages[2] > 8
                    }
                    let refused = try await Self.create(config)
                    #expect(refused.status == 2)
                    #expect(
                        refused.stderr.contains("1 of the EUR prices of cb1, cb2, cb3 is at most 8 s old (cb2's is "),
                        "\(refused.stderr)"
                    )
                    #expect(refused.stderr.contains("requests.rate.agree needs 2"), "\(refused.stderr)")
                    #expect(try await WatcherProcess.stop(daemon) == 0)
                }
            }
        }
    }
}

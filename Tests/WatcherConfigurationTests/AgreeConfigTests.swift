import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins

/// `agree` and `maxLag`: ranges, providers able to verify, the strategies verified, and what `check` prints.
struct AgreeConfigTests {
    static let address = ConfigCheckTests.address
    static let providers =
        #"[{"id": "a", "type": "blockbook", "options": {"url": "https://a.example"}},"#
        + #" {"id": "b", "type": "blockbook", "options": {"url": "https://b.example"}},"#
        + #" {"id": "ra", "type": "rawaddr"}]"#

    static func watch(_ fields: String, providers list: String = #"["a", "b", "ra"]"#) -> String {
        ConfigCheckTests.config(
            providers: providers,
            watches:
                #"[{"id": "w", "type": "address", "providers": \#(list), "addresses": ["\#(address)"], \#(fields)}]"#
        )
    }

    /// A wallet watch over the three providers, with `fields`.
    static func wallet(_ fields: String) -> String {
        ConfigCheckTests.config(
            providers: providers,
            watches:
                #"[{"id": "w", "type": "wallet", "providers": ["a", "b", "ra"], "xpub": "\#(WalletKeys.zpub)", \#(fields)}]"#
        )
    }

    static let cases: [ConfigErrorTests.Case] = [
        .init(
            name: "agree 0",
            json: watch(#""agree": 0"#),
            path: "watches[0].agree",
            message: "expected an integer from 1 to 16, got 0"
        ),
        .init(
            name: "agree above the providers able to verify",
            json: watch(#""agree": 3"#),
            path: "watches[0].agree",
            message:
                #"agree 3 needs 3 providers able to verify a transaction (transaction lookups); this watch has 2: "a", "b""#
        ),
        .init(
            name: "agree with a scanned strategy",
            json: watch(#""agree": 2, "strategy": "scan""#),
            path: "watches[0].strategy",
            message:
                #"agree above 1 verifies the payments a poll finds; "scan" is not verified yet: use "poll" or "auto""#
        ),
        .init(
            name: "minSeenBy above the providers able to look a transaction up",
            json: wallet(#""requests": {"zeroConf": {"maxSat": 50000, "minSeenBy": 3}}"#),
            path: "watches[0].requests.zeroConf.minSeenBy",
            message: #"minSeenBy 3 needs 3 providers able to look up a transaction; this watch has 2: "a", "b""#
        ),
        .init(
            name: "minSeenBy with a scanned strategy",
            json: wallet(#""strategy": "scan", "requests": {"zeroConf": {"maxSat": 50000, "minSeenBy": 2}}"#),
            path: "watches[0].requests.zeroConf.minSeenBy",
            message:
                #"minSeenBy is counted on the payments a poll finds; strategy "scan" does not ask the other providers: "#
                + #"use "poll" or "auto""#
        ),
        .init(
            name: "minSeenBy 0",
            json: wallet(#""requests": {"zeroConf": {"maxSat": 50000, "minSeenBy": 0}}"#),
            path: "watches[0].requests.zeroConf.minSeenBy",
            message: "expected an integer from 1 to 100, got 0"
        ),
        .init(
            name: "maxLag out of range",
            json: watch(#""agree": 2, "maxLag": -1"#),
            path: "watches[0].maxLag",
            message: "expected an integer from 0 to 1000, got -1"
        ),
    ]

    @Test(arguments: cases)
    func reportsPathAndMessage(_ testCase: ConfigErrorTests.Case) {
        ConfigErrorTests.expectReported(testCase)
    }

    @Test func agreeIsReadAndDefaultsToOne() throws {
        let loader = ConfigLoader(registry: .builtIn, environment: [:])
        let two = try loader.load(bytes: Array(Self.watch(#""agree": 2, "maxLag": 4"#).utf8))
        #expect(two.watches[0].agree == 2)
        #expect(two.watches[0].maxLag == 4)
        let plain = try loader.load(bytes: Array(Self.watch(#""every": "2m""#).utf8))
        #expect(plain.watches[0].agree == 1)
        #expect(plain.watches[0].maxLag == 2)
        // A watch that does not use them shows neither in `watcher check`.
        #expect(!plain.resolved.serialized().contains("agree"))
    }

    @Test func checkPrintsWhatMinSeenByCosts() throws {
        let json = ConfigCheckTests.config(
            providers: Self.providers,
            watches: #"[{"id": "w", "type": "wallet", "providers": ["a", "b"], "xpub": "\#(WalletKeys.zpub)", "#
                + #""strategy": "poll", "requests": {"zeroConf": {"maxSat": 50000, "minSeenBy": 2}}}]"#
        )
        let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
        #expect(config.watches[0].requests?.zeroConf?.minSeenBy == 2)
        let job = try #require(JobPlan(config: config).jobs.first { $0.detail.contains("minSeenBy") })
        #expect(
            job.detail.hasSuffix(
                "; zeroConf.minSeenBy 2 of a, b: a mempool payment settles unconfirmed once 2 of them report it; "
                    + "extra cost at most 1 request per mempool payment per poll while fewer do"
            ),
            "\(job.detail)"
        )
    }

    @Test func checkPrintsTheExtraCost() throws {
        let loader = ConfigLoader(registry: .builtIn, environment: [:])
        let config = try loader.load(bytes: Array(Self.watch(#""agree": 2"#).utf8))
        let job = JobPlan(config: config).jobs.first { $0.name == "watch w" }
        #expect(
            job?.detail.hasSuffix(
                "; agree 2 of a, b: a confirmation is announced once 2 providers hold the transaction in the same "
                    + "block; extra cost at most 1 request per confirmed payment (1 per confirmed payment per "
                    + "verifying provider), none for mempool payments; a second opinion once per block: 1 address "
                    + "summary from the next provider (batched where it can), a history only where it sees more; the "
                    + "chain's tip is asked of each of them every round (the tip 2 share counts confirmations), and "
                    + "providers more than 2 blocks behind or on another chain are set aside"
            ) == true
        )
        // The chain's tip job asks each trusted provider that has a tip, every round, and says so.
        let tip = try #require(JobPlan(config: config).jobs.first { $0.name == "tip btc" })
        let tipped = ["a", "b", "ra"].filter { config.provider($0)?.chainCapabilities.contains(.tip) ?? false }
        #expect(tip.detail.contains("agreed tip: the tip of each of \(tipped.joined(separator: ", ")) every round"))
        #expect(Set(tip.alsoAsks.keys) == Set(tipped.filter { $0 != tip.providers.first }))
        #expect(tip.alsoAsks.values.allSatisfy { $0 > 0 })
        // The second opinion: the watch's summaries once per block on its second provider.
        #expect(job?.alsoAsks.keys.sorted() == ["b"])
        let budget = BudgetPlan(config: config)
        let onB = budget.lines.first { $0.provider == "b" }?.demands.map(\.watch) ?? []
        #expect(onB.contains("tip btc"))
        let plain = try loader.load(bytes: Array(Self.watch("\"agree\": 1").utf8))
        #expect(JobPlan(config: plain).jobs.first { $0.name == "watch w" }?.detail.contains("agree") == false)
    }
}

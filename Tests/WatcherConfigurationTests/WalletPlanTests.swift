import Testing
import WatcherConfiguration
import WatcherCore
import WatcherPlugins

/// The job of each `wallet` watch and what it costs: a scanned wallet costs nothing per wallet (the block is read
/// once for all), a polled one its window each round.
struct WalletPlanTests {
    static func load(_ watches: String, providers: String? = nil) throws -> WatcherConfig {
        try WalletConfigTests.load(watches, providers: providers)
    }

    @Test func scanCostsTheSameForOneWalletAndAHundred() throws {
        func plan(_ count: Int, strategy: String) throws -> JobPlan {
            // 100 distinct wallets: the children n of BIP84's account key, each with its own receive and change.
            let watches = (0..<count).map { n in
                #"{"id": "w\#(n)", "type": "wallet", "providers": ["bb"], "strategy": "\#(strategy)", "#
                    + #""descriptor": "wpkh(\#(WalletKeys.account84)/\#(n)/<0;1>/*)"}"#
            }
            return JobPlan(config: try Self.load("[\(watches.joined(separator: ","))]"))
        }
        let tip = { (plan: JobPlan) in plan.jobs.first { $0.name == "tip btc" }?.requestsPerHour }
        let one = try plan(1, strategy: "scan")
        let hundred = try plan(100, strategy: "scan")
        #expect(tip(one) != nil && tip(one) == tip(hundred))
        #expect(hundred.jobs.filter { $0.name.hasPrefix("watch w") }.allSatisfy { $0.requestsPerHour == 0 })
        // Polling costs the window: 40 addresses (gap 20, two branches) a round.
        let polled = try plan(1, strategy: "poll")
        let job = try #require(polled.jobs.first { $0.name == "watch w0" })
        #expect(job.work == .wallet(chain: "btc", watch: "w0", strategy: .poll))
        #expect(job.requestsPerHour == 40 * (30 + 6))
    }

    @Test func autoPicksScanForABigWindowAndPollForASmallOne() throws {
        let small = try Self.load(
            #"[{"id": "s", "type": "wallet", "providers": ["bb"], "xpub": "\#(WalletKeys.zpub)", "gap": 1, "every": "1h"}]"#,
            providers:
                #"[{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example"}, "rateLimit": {"requests": 600, "per": "1m"}}]"#
        )
        #expect(JobPlan(config: small).jobs.contains { $0.work == .wallet(chain: "btc", watch: "s", strategy: .poll) })
        let big = try Self.load(
            #"[{"id": "b", "type": "wallet", "providers": ["bb"], "xpub": "\#(WalletKeys.zpub)", "gap": 1000}]"#
        )
        #expect(JobPlan(config: big).jobs.contains { $0.work == .wallet(chain: "btc", watch: "b", strategy: .scan) })
    }

}

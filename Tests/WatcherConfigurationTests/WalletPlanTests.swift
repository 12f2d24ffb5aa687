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

    /// Multisig: Blockbook's xpub endpoint does not take it, so auto picks between poll and scan.
    static let multisig = "wsh(sortedmulti(1,\(WalletKeys.account84)/<0;1>/*,\(WalletKeys.account86)/<0;1>/*))"

    @Test func autoPicksScanForABigWindowAndPollForASmallOne() throws {
        let small = try Self.load(
            #"[{"id": "s", "type": "wallet", "providers": ["bb"], "descriptor": "\#(Self.multisig)", "gap": 1, "every": "1h"}]"#,
            providers:
                #"[{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example"}, "rateLimit": {"requests": 600, "per": "1m"}}]"#
        )
        #expect(JobPlan(config: small).jobs.contains { $0.work == .wallet(chain: "btc", watch: "s", strategy: .poll) })
        let big = try Self.load(
            #"[{"id": "b", "type": "wallet", "providers": ["bb"], "descriptor": "\#(Self.multisig)", "gap": 1000}]"#
        )
        #expect(JobPlan(config: big).jobs.contains { $0.work == .wallet(chain: "btc", watch: "b", strategy: .scan) })
    }

    /// A single-key wallet on Blockbook: one xpub request per round whatever the window, so auto takes it for a
    /// window of 2 as for one of 2,000, and check prints the three costs.
    @Test func autoPicksXpubWhereTheProviderServesIt() throws {
        for gap in [1, 1000] {
            let config = try Self.load(
                #"[{"id": "w", "type": "wallet", "providers": ["bb"], "xpub": "\#(WalletKeys.zpub)", "gap": \#(gap)}]"#
            )
            let job = try #require(JobPlan(config: config).jobs.first { $0.name == "watch w" })
            #expect(job.work == .wallet(chain: "btc", watch: "w", strategy: .xpub))
            // Every 2 minutes (30 an hour) and after each of ~6 blocks an hour.
            #expect(job.requestsPerHour == 30 + 6)
            #expect(job.detail.contains("xpub 36/h (1 request per round"), "\(job.detail)")
            #expect(job.detail.contains("auto picks xpub"))
            #expect(job.detail.contains("poll \(2 * gap * 36)/h"), "\(job.detail)")
        }
    }

}

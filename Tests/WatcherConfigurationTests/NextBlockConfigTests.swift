import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins

/// `zeroConf.minFeeRate: "nextBlock"`: read beside a number, refused without a provider that estimates fees, and
/// the fee job `check` prints for it.
struct NextBlockConfigTests {
    static func wallet(_ minFeeRate: String, providers list: String = #"["a", "ra"]"#, every: String = "5s") -> String {
        ConfigCheckTests.config(
            providers: AgreeConfigTests.providers,
            watches: #"[{"id": "w", "type": "wallet", "providers": \#(list), "xpub": "\#(WalletKeys.zpub)", "#
                + #""every": "\#(every)", "requests": {"zeroConf": {"maxSat": 50000, "minFeeRate": \#(minFeeRate)}}}]"#
        )
    }

    static let cases: [ConfigErrorTests.Case] = [
        .init(
            name: "a word other than nextBlock",
            json: wallet(#""fast""#),
            path: "watches[0].requests.zeroConf.minFeeRate",
            message: #"expected a number of sat/vB or "nextBlock", got "fast""#
        ),
        .init(
            name: "nextBlock without a provider that estimates fees",
            json: wallet(#""nextBlock""#, providers: #"["ra"]"#),
            path: "watches[0].requests.zeroConf.minFeeRate",
            message: #""nextBlock" needs a provider that estimates fees (blockbook, bitcoind, electrum); this watch "#
                + #"has none: "ra""#
        ),
        .init(
            name: "a rate of zero",
            json: wallet("0"),
            path: "watches[0].requests.zeroConf.minFeeRate",
            message: "expected a number greater than 0, got 0"
        ),
    ]

    @Test(arguments: cases)
    func reportsPathAndMessage(_ testCase: ConfigErrorTests.Case) {
        ConfigErrorTests.expectReported(testCase)
    }

    @Test func nextBlockPlansOneFeeJobPerChainOnTheProvidersThatEstimate() throws {
        let loader = ConfigLoader(registry: .builtIn, environment: [:])
        let config = try loader.load(bytes: Array(Self.wallet(#""nextBlock""#, providers: #"["ra", "a", "b"]"#).utf8))
        let policy = try #require(config.watches[0].requests?.zeroConf)
        #expect(policy.minFeeRateNextBlock == true && policy.minFeeRate == nil)
        #expect(config.resolved.serialized().contains(#""minFeeRate":"nextBlock""#))
        let fee = try #require(JobPlan(config: config).jobs.first { $0.name == "fee btc" })
        #expect(fee.providers == ["a", "b"], "rawaddr has no estimate")
        #expect(fee.every == .seconds(10), "a wallet polled every 5 s: at least 10 s")
        #expect(fee.detail.contains(#"1 next-block fee estimate every 10s and on each new block"#), "\(fee.detail)")
        // A number needs no estimate: no fee job.
        let number = try loader.load(bytes: Array(Self.wallet("2.5").utf8))
        #expect(number.watches[0].requests?.zeroConf?.minFeeRate == Decimal(string: "2.5"))
        #expect(!JobPlan(config: number).jobs.contains { $0.name == "fee btc" })
    }
}

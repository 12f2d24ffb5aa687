import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// `zeroConf.minFeeRate: "nextBlock"` through the real daemon: the fee job reads the simnet's next-block estimate
/// (Blockbook's `/api/v2/estimatefee/1`), and an unconfirmed payment settles only when its fee rate reaches the
/// estimate it was first judged against; above it, it waits for its block.
@Suite(.timeLimit(.minutes(4)))
struct RequestFeeTests {
    /// Waits until the daemon stored `rate` as the chain's estimate (a block wakes the fee job).
    static func estimate(_ rate: Decimal, _ simnet: Simnet, _ data: String) async throws {
        await simnet.setFeeRate(rate)
        _ = try await simnet.mine()
        let store = try await eventuallyValue("the store") { try? Store(path: data, options: .init(readOnly: true)) }
        try await eventually("the estimate \(rate) stored") {
            try store.read { try $0.feeEstimate(chain: "btc")?.satPerVB == rate }
        }
    }

    @Test func anUnconfirmedPaymentSettlesOnlyAtTheNextBlockFeeRateItWasJudgedAgainst() async throws {
        let terms = #"{"zeroConf": {"maxSat": 50000, "minFeeRate": "nextBlock"}}"#
        try await RequestHarness.withDaemon(requests: terms) { simnet, config, data in
            // 1 sat/vB: any payment of the simnet pays more.
            try await Self.estimate(1, simnet, data)
            let cheap = try await RequestHarness.cli(["create", "shop", "--sat", "30000"], config: config)
            let cheapID = try #require(cheap["id"]?.stringValue)
            try await simnet.pay(to: try #require(cheap["address"]?.stringValue), amountSat: 30_000, rbf: false)
            let settled = try await RequestHarness.wait(data, cheapID, "request.settled")
            #expect(settled["data"]?["policy"] == .string("zeroConf"), "\(settled)")
            let payment = settled["data"]?["payments"]?[0]
            #expect(payment?["confirmations"] == .number("0") && payment?["nextBlockFeeRate"] == .string("1"))
            let paid = try #require(payment?["feeRate"]?.stringValue.flatMap { Decimal(string: $0) })
            #expect(paid > 1, "\(settled)")

            // The next block needs 1,000 sat/vB: the same kind of payment waits for its confirmation.
            try await Self.estimate(1_000, simnet, data)
            let dear = try await RequestHarness.cli(["create", "shop", "--sat", "30000"], config: config)
            let dearID = try #require(dear["id"]?.stringValue)
            try await simnet.pay(to: try #require(dear["address"]?.stringValue), amountSat: 30_000, rbf: false)
            let waiting = try await RequestHarness.wait(data, dearID, "request.paid")
            #expect(waiting["data"]?["payments"]?[0]?["nextBlockFeeRate"] == .string("1000"), "\(waiting)")
            let shown = try await WatcherProcess.run(["requests", "show", dearID, "--config", config])
            #expect(shown.stdout.contains(" sat/vB (next block needed 1000)"), "\(shown.stdout)")
            _ = try await simnet.mine()
            let confirmed = try await RequestHarness.wait(data, dearID, "request.settled")
            #expect(confirmed["data"]?["policy"] == .string("confirmations>=1"), "\(confirmed)")
            #expect(
                RequestHarness.types(data, request: dearID) == [
                    "request.created", "request.payment.seen", "request.paid", "request.settled",
                ]
            )
            RequestHarness.expectNoRepeatedIDs(data)
        }
    }
}

import Foundation
import WatcherCore
import WatcherSimnet

extension ChainAgreement {
    /// `feeRate(blocks: 1)` (``ChainCapabilities/feeEstimate``): the simnet's next-block rate in sat/vB, exactly,
    /// after ``Simnet/setFeeRate(_:)`` to 12.5 and then to 3.217 (it follows the simnet, it is not a constant), and
    /// for a later target too. The simnet's rate is put back afterwards.
    func feeRates() async throws {
        guard has.contains(.feeEstimate) else { return }
        let before = await simnet.feeRate()
        for rate in [Decimal(string: "12.5")!, Decimal(string: "3.217")!] {
            await simnet.setFeeRate(rate)
            let served = await simnet.feeRate()
            check(served == rate, "the simnet serves \(served) sat/vB after setFeeRate(\(rate))")
            let answer = try await provider.feeRate(blocks: 1)
            check(answer == rate, "feeRate(blocks: 1): \(answer) sat/vB, the simnet says \(rate)")
        }
        let later = try await provider.feeRate(blocks: 6)
        check(later == Decimal(string: "3.217")!, "feeRate(blocks: 6): \(later) sat/vB, the simnet says 3.217")
        await simnet.setFeeRate(before)
    }
}

import Foundation
import WatcherCore
import WatcherRules
import WatcherScheduler
import WatcherStorage

/// The fee job of a chain (`zeroConf.minFeeRate: "nextBlock"`): reads the next-block fee estimate and stores it for
/// the request job, which holds each unconfirmed payment to the estimate of the step it is first judged in.
struct FeeDriver: Sendable {
    let chain: String
    /// The providers that estimate fees, in order.
    let providers: [String]
    let context: EngineContext

    /// Asks the providers in order, passing to the next when one fails or has no estimate (a node with too little
    /// data answers "not found"); stores the first estimate.
    func poll() async throws {
        var lastError: (any Error)?
        for id in providers {
            let rate: Decimal
            do {
                rate = try await context.ask([id], .refresh) { try await $0.feeRate(blocks: 1) }
            } catch {
                lastError = error
                continue
            }
            let estimate = FeeEstimate(satPerVB: rate, time: context.events.now(), provider: id)
            let chain = self.chain
            _ = try await context.commit { txn in
                try txn.putFeeEstimate(estimate, chain: chain)
                return []
            }
            return
        }
        if let lastError { throw lastError }
    }
}

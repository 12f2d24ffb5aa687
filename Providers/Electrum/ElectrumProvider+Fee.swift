import Foundation
import WatcherCore
import WatcherJSON

extension ElectrumProvider {
    /// `blockchain.estimatefee <blocks>` → BTC per kvB as a JSON number (the server asks its node's
    /// `estimatesmartfee`), read from its text into sat/vB exactly (``FeeRate``). A server without an estimate
    /// answers `-1`: ``ProviderError/notFound(provider:what:)``. One call.
    public func feeRate(blocks: Int) async throws -> Decimal {
        guard blocks >= 1 else { throw ProviderError.badRequest(provider: id, detail: "blocks \(blocks) is below 1") }
        let what = "fee estimate for \(blocks) block(s)"
        let result = try await link.call("blockchain.estimatefee", [.number("\(blocks)")])
        guard case .number(let text) = result, let rate = FeeRate.satPerVB(btcPerKvB: text) else {
            throw invalid("estimatefee answered \(Self.clip(result)), not a BTC/kvB number")
        }
        guard rate > 0 else {
            throw ProviderError.notFound(provider: id, what: "\(what) (the server answered \(text): no estimate)")
        }
        return rate
    }
}

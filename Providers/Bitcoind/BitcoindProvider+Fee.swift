import Foundation
import WatcherCore
import WatcherHTTP
import WatcherJSON

extension BitcoindProvider {
    /// `estimatesmartfee <blocks>` → `{"feerate": 0.00012299, "blocks": 2}`: BTC per kvB as a JSON number, read from
    /// its text into sat/vB exactly (``FeeRate``). A node with too little data (always on regtest, and for a while
    /// after a start) leaves `feerate` out and says why in `errors` (`Insufficient data or no feerate found`):
    /// ``ProviderError/notFound(provider:what:)`` naming the missing estimate and the node's words. A target outside
    /// Core's 1...1008 is its `-8`, a ``ProviderError/badRequest(provider:detail:)``. One request.
    public func feeRate(blocks: Int) async throws -> Decimal {
        let what = "fee estimate for \(blocks) block(s)"
        let node = try await rpc.call("estimatesmartfee", [.number("\(blocks)")], what: what)
        guard let feerate = node["feerate"] else {
            _ = try node.required("blocks")
            let errors = try (node["errors"]?.array() ?? []).map { try $0.string() }
            let reason = errors.isEmpty ? "no feerate" : errors.joined(separator: "; ")
            throw ProviderError.notFound(provider: id, what: "\(what) (estimatesmartfee: \(reason))")
        }
        guard case .number(let text) = feerate.value, let rate = FeeRate.satPerVB(btcPerKvB: text) else {
            throw feerate.failure(
                "expected a BTC/kvB number at \(feerate.place), got \(feerate.value.serialized())"
            )
        }
        guard rate > 0 else { throw ProviderError.notFound(provider: id, what: "\(what) (feerate \(text))") }
        return rate
    }
}

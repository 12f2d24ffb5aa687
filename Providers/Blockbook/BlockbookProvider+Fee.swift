import Foundation
import WatcherCore
import WatcherHTTP

extension BlockbookProvider {
    /// `GET /api/v2/estimatefee/<blocks>` → `{"result":"0.00012299"}`: the backend's `estimatesmartfee` as a decimal
    /// string of BTC per kvB, read exactly into sat/vB (``FeeRate``). Blockbook writes `"0"` when its backend has
    /// no estimate (too little data) and a negative amount from old backends' `estimatefee`: both are
    /// ``ProviderError/notFound(provider:what:)``. One request.
    public func feeRate(blocks: Int) async throws -> Decimal {
        guard blocks >= 1 else { throw ProviderError.badRequest(provider: id, detail: "blocks \(blocks) is below 1") }
        let what = "fee estimate for \(blocks) block(s)"
        let node = try await fetch("/api/v2/estimatefee/\(blocks)", what: what)
        return try decoder.feeRate(node, what: what)
    }
}

extension BlockbookDecoder {
    /// The sat/vB rate of an `estimatefee` answer, `{"result": "<BTC per kvB>"}` (a number is taken too).
    /// - Throws: ``ProviderError/invalidResponse(provider:detail:)`` without a decimal `result`,
    ///   ``ProviderError/notFound(provider:what:)`` for zero or a negative rate (no estimate).
    public func feeRate(_ node: ProviderHTTP.JSONNode, what: String) throws -> Decimal {
        let rate = FeeRate.satPerVB(btcPerKvB: try node.required("result").decimal())
        guard rate > 0 else {
            throw ProviderError.notFound(provider: provider, what: "\(what) (Blockbook answered \(rate) sat/vB)")
        }
        return rate
    }
}

import Foundation
import WatcherCore
import WatcherJSON

extension NodeRPC {
    /// Core's highest confirmation target (`estimatesmartfee`'s `max_target`).
    static let maxFeeTarget = 1008

    /// `estimatesmartfee conf_target ( "estimate_mode" )`: `{"feerate": <BTC/kvB, 8 decimals>, "blocks": n}` with
    /// the world's next-block rate for every target, and `blocks` at least 2 as Core answers (its estimator has no
    /// 1-block horizon). With ``NodeSettings/insufficientFeeData`` on, regtest's answer instead:
    /// `{"errors": ["Insufficient data or no feerate found"], "blocks": 0}`, without `feerate`.
    func estimateSmartFee(_ p: RPCParams) throws(RPCError) -> JSONValue {
        guard let target = try p.int(0) else { throw .type(p.value(0) ?? .null, expected: "number") }
        guard (1...Self.maxFeeTarget).contains(target) else {
            throw .invalidParameter("Invalid conf_target, must be between 1 and \(Self.maxFeeTarget)")
        }
        if let mode = try p.string(1), !["unset", "economical", "conservative"].contains(mode.lowercased()) {
            throw .invalidParameter(
                #"Invalid estimate_mode parameter, must be one of: "unset", "economical", "conservative""#
            )
        }
        guard !insufficientFeeData, let rate = FeeRate.btcPerKvBText(satPerVB: feeRate) else {
            return .object([
                .init("errors", .array([.string("Insufficient data or no feerate found")])),
                .init("blocks", .integer(0)),
            ])
        }
        return .object([.init("feerate", .number(rate)), .init("blocks", .integer(max(2, target)))])
    }
}

import Foundation
import WatcherCore
import WatcherJSON

extension BlockbookRenderer {
    /// `GET /api/v2/estimatefee/<blocks>`: `{"result":"0.00012500"}`, the world's next-block rate (sat/vB) as a
    /// decimal string of BTC per kvB with 8 decimals, whatever the target. A target that is not a positive integer
    /// gets 400 `{"error":…}`, as Blockbook refuses a bad path parameter.
    static func estimateFee(_ blocks: Substring, satPerVB: Decimal) -> SimReply {
        guard let target = Int(blocks) else { return error("Parameter 'number of blocks' is not a number") }
        guard target >= 1 else { return error("Parameter 'number of blocks' must be at least 1") }
        guard let text = FeeRate.btcPerKvBText(satPerVB: satPerVB) else {
            return error("Internal server error", status: 500)
        }
        return .json(.object([.init("result", .string(text))]))
    }
}

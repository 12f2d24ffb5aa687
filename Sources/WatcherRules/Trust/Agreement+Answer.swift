import WatcherCore

extension Agreement {
    /// A provider's transaction as an answer: its block, and its effect on `address` when every input that
    /// spends from the address carries its value.
    public static func answer(_ tx: ChainTransaction, address: String?) -> Agreement.Answer {
        guard let height = tx.blockHeight else { return .mempool }
        var delta: Int64?
        if let address {
            let received = tx.outputs.filter { $0.address == address }.reduce(Int64(0)) { $0 + $1.valueSat }
            let spent = tx.inputs.filter { $0.address == address }.reduce(Int64(0)) { $0 + $1.valueSat }
            delta = received - spent
        }
        return .block(height: height, hash: tx.blockHash, deltaSat: delta)
    }
}

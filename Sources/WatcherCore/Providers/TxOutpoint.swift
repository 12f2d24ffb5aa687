/// One output of a transaction, as an input names what it spends: the txid that made it and its index.
public struct TxOutpoint: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The txid of the transaction that made the output.
    public var txid: String
    /// The output's index in that transaction.
    public var vout: Int

    /// Creates an outpoint.
    public init(txid: String, vout: Int) {
        self.txid = txid
        self.vout = vout
    }

    /// `txid:vout`.
    public var description: String { "\(txid):\(vout)" }

    public static func < (lhs: TxOutpoint, rhs: TxOutpoint) -> Bool {
        (lhs.txid, lhs.vout) < (rhs.txid, rhs.vout)
    }
}

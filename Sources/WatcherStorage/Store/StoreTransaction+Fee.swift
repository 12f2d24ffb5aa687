import WatcherCore

/// A chain's latest next-block fee estimate (`meta` `fee_estimate/<chain>`), which the fee job writes and the
/// request job holds zero-conf payments to (`zeroConf.minFeeRate: "nextBlock"`).
extension StoreTransaction {
    static func feeKey(_ chain: String) -> [UInt8] { Keys.text("fee_estimate", chain) }

    /// The latest next-block fee estimate of `chain`, if one was read.
    public func feeEstimate(chain: String) throws -> FeeEstimate? {
        try value(FeeEstimate.self, tables.meta, Self.feeKey(chain))
    }
}

extension StoreTransaction where Txn == WriteTransaction {
    /// Stores `estimate` as `chain`'s latest.
    public func putFeeEstimate(_ estimate: FeeEstimate, chain: String) throws {
        try put(tables.meta, Self.feeKey(chain), estimate)
    }
}

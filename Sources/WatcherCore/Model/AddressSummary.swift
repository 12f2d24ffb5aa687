/// What a provider reports about one address. Amounts are exact satoshi. A value the provider cannot supply is
/// `nil`, never a guess.
public struct AddressSummary: Sendable, Hashable, Codable {
    /// The address as queried.
    public var address: String
    /// Confirmed balance.
    public var balanceSat: Int64?
    /// Sum of confirmed outputs paying the address.
    public var totalReceivedSat: Int64?
    /// Sum of confirmed inputs spending from it.
    public var totalSentSat: Int64?
    /// Confirmed transaction count.
    public var txCount: Int?
    /// Net effect of mempool transactions (may be negative).
    public var unconfirmedBalanceSat: Int64?
    /// Mempool transaction count.
    public var unconfirmedTxCount: Int?

    /// Creates a summary.
    public init(
        address: String,
        balanceSat: Int64?,
        totalReceivedSat: Int64?,
        totalSentSat: Int64?,
        txCount: Int?,
        unconfirmedBalanceSat: Int64?,
        unconfirmedTxCount: Int?
    ) {
        self.address = address
        self.balanceSat = balanceSat
        self.totalReceivedSat = totalReceivedSat
        self.totalSentSat = totalSentSat
        self.txCount = txCount
        self.unconfirmedBalanceSat = unconfirmedBalanceSat
        self.unconfirmedTxCount = unconfirmedTxCount
    }

    /// A summary of `address` with every value unknown (`nil`).
    public static func unknown(_ address: String) -> AddressSummary {
        AddressSummary(
            address: address,
            balanceSat: nil,
            totalReceivedSat: nil,
            totalSentSat: nil,
            txCount: nil,
            unconfirmedBalanceSat: nil,
            unconfirmedTxCount: nil
        )
    }

    /// A summary of `address` with no transactions: every value 0.
    public static func empty(_ address: String) -> AddressSummary {
        AddressSummary(
            address: address,
            balanceSat: 0,
            totalReceivedSat: 0,
            totalSentSat: 0,
            txCount: 0,
            unconfirmedBalanceSat: 0,
            unconfirmedTxCount: 0
        )
    }
}

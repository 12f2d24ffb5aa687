/// The true state of one address, computed straight from the simulated chain: the oracle tests
/// and benchmarks compare provider adapters against.
///
/// How each provider family reports it:
/// - Blockbook: `balance` = ``confirmedBalanceSat``, `unconfirmedBalance` = ``unconfirmedBalanceSat``,
///   `totalReceived`/`totalSent` = ``totalReceivedSat``/``totalSentSat``, `txs` = ``confirmedTxCount``,
///   `unconfirmedTxs` = ``unconfirmedTxCount``.
/// - rawaddr/multiaddr: `final_balance` = confirmed + unconfirmed balance, `n_tx` = confirmed + unconfirmed
///   count, `total_received`/`total_sent` include the unconfirmed parts.
public struct AddressTruth: Sendable, Hashable, Codable {
    /// The address.
    public let address: String
    /// Its script type.
    public let kind: SimAddress.Kind
    /// `true` for the simnet's funded wallet addresses, `false` for addresses only paid via the control API.
    public let funded: Bool
    /// Balance over confirmed transactions.
    public let confirmedBalanceSat: Int64
    /// Net change from mempool transactions (may be negative).
    public let unconfirmedBalanceSat: Int64
    /// Satoshi received in confirmed transactions.
    public let totalReceivedSat: Int64
    /// Satoshi sent in confirmed transactions.
    public let totalSentSat: Int64
    /// Satoshi received in mempool transactions.
    public let unconfirmedReceivedSat: Int64
    /// Satoshi sent in mempool transactions.
    public let unconfirmedSentSat: Int64
    /// Confirmed transactions touching the address.
    public let confirmedTxCount: Int
    /// Mempool transactions touching the address.
    public let unconfirmedTxCount: Int
    /// Outputs to the address not spent by any known transaction (confirmed or mempool).
    public let unspentOutputCount: Int

    /// Confirmed plus unconfirmed balance: blockchain.info's `final_balance`.
    public var finalBalanceSat: Int64 { confirmedBalanceSat + unconfirmedBalanceSat }
}

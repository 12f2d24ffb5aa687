/// Confirmed balances read from a node's UTXO set (`scantxoutset`): what the addresses hold at ``block``, and
/// nothing of their history (a UTXO set has no spent outputs).
public struct UTXOBalances: Sendable, Hashable {
    /// The tip the UTXO set was read at.
    public var block: BlockRef
    /// The confirmed balance of every address asked, in satoshi (0 for an address with no unspent output).
    public var balances: [String: Int64]
    /// The unspent outputs behind each balance, by address, where the provider names them (Core's `scantxoutset`
    /// gives each one's txid and height): a payment made after a wallet started is told apart from its baseline.
    public var outputs: [String: [Output]]

    /// One unspent output.
    public struct Output: Sendable, Hashable {
        /// The transaction that made it.
        public var txid: String
        /// Its index in that transaction.
        public var vout: Int
        /// Its value in satoshi.
        public var valueSat: Int64
        /// The height of the block that holds the transaction.
        public var height: Int

        /// Creates one.
        public init(txid: String, vout: Int, valueSat: Int64, height: Int) {
            self.txid = txid
            self.vout = vout
            self.valueSat = valueSat
            self.height = height
        }
    }

    /// Creates a result.
    public init(block: BlockRef, balances: [String: Int64], outputs: [String: [Output]] = [:]) {
        self.block = block
        self.balances = balances
        self.outputs = outputs
    }
}

extension ChainProvider {
    public func unspentBalances(_ addresses: [String]) async throws -> UTXOBalances {
        throw ProviderError.unsupported(provider: id, operation: "unspentBalances")
    }
}

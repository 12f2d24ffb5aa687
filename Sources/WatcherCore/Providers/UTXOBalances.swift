/// Confirmed balances read from a node's UTXO set (`scantxoutset`): what the addresses hold at ``block``, and
/// nothing of their history (a UTXO set has no spent outputs).
public struct UTXOBalances: Sendable, Hashable {
    /// The tip the UTXO set was read at.
    public var block: BlockRef
    /// The confirmed balance of every address asked, in satoshi (0 for an address with no unspent output).
    public var balances: [String: Int64]

    /// Creates a result.
    public init(block: BlockRef, balances: [String: Int64]) {
        self.block = block
        self.balances = balances
    }
}

extension ChainProvider {
    public func unspentBalances(_ addresses: [String]) async throws -> UTXOBalances {
        throw ProviderError.unsupported(provider: id, operation: "unspentBalances")
    }
}

/// One address of a wallet: where it sits, what it pays to, and how it is written.
public struct DerivedAddress: Sendable, Hashable, CustomStringConvertible {
    /// The branch (receive or change).
    public let branch: WalletDescriptor.Branch
    /// The index within the branch.
    public let index: UInt32
    /// The output script: what to match and store.
    public let scriptPubKey: [UInt8]
    /// The address.
    public let address: BitcoinAddress
    /// The derivation path: from the master key when the key origin is known (`m/84'/0'/0'/0/7`), else
    /// relative to the key given (`0/7`). For multisig, the first key's path.
    public let path: DerivationPath

    /// Creates a derived address.
    public init(
        branch: WalletDescriptor.Branch,
        index: UInt32,
        scriptPubKey: [UInt8],
        address: BitcoinAddress,
        path: DerivationPath
    ) {
        self.branch = branch
        self.index = index
        self.scriptPubKey = scriptPubKey
        self.address = address
        self.path = path
    }

    /// `path address`, e.g. `m/84'/0'/0'/0/0 bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu`.
    public var description: String { "\(path) \(address)" }
}

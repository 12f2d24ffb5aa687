/// Why text or a descriptor cannot be followed as a wallet (see ``WalletDescriptor``).
public enum WalletError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The text is empty (or only whitespace): there is nothing to parse.
    case empty
    /// The descriptor does not parse, or a derivation from it failed.
    case descriptor(DescriptorError)
    /// The bare extended key does not parse, is private, or belongs to another network.
    case extendedKey(ExtendedKeyError)
    /// The descriptor is valid but not a wallet shape; carries its shape, e.g. `pk(KEY)`.
    case unsupportedScript(String)
    /// No key ends in `/*`: a wallet needs a range of addresses.
    case notRanged
    /// The multipath tuple does not have exactly two elements (receive;change). Carries its length.
    case branchCount(Int)
    /// The receive and change descriptors do not describe one wallet; carries why.
    case mismatchedBranches(String)
    /// A bare SLIP-132 multisig key (`Ypub`, `Zpub`, `Upub`, `Vpub`): a multisig wallet needs every cosigner.
    case multisigPrefix(ExtendedKeyVersion)
    /// The wallet was given without a change branch.
    case noChangeBranch

    /// A sentence naming the problem. Wrapped errors keep their own text, so a private key still reads
    /// "watch-only: give the extended public key …".
    public var description: String {
        switch self {
        case .empty:
            "the wallet is empty: give an output descriptor or an extended public key (xpub/ypub/zpub, tpub/upub/vpub)"
        case .descriptor(let error): error.description
        case .extendedKey(let error): error.description
        case .unsupportedScript(let shape):
            "\(shape) is not a wallet descriptor (expected pkh, sh(wpkh), wpkh, tr, wsh(sortedmulti) "
                + "or sh(wsh(sortedmulti)))"
        case .notRanged: "the descriptor has no /* step, so it describes one address, not a wallet"
        case .branchCount(let count):
            "a wallet's multipath tuple must have exactly two elements <receive;change>, not \(count)"
        case .mismatchedBranches(let reason): "the receive and change descriptors differ: \(reason)"
        case .multisigPrefix(let version):
            "\(version) is a SLIP-132 multisig key: give a wsh(sortedmulti(k,KEY,…)) descriptor with every "
                + "cosigner's key"
        case .noChangeBranch: "the wallet has no change branch"
        }
    }
}

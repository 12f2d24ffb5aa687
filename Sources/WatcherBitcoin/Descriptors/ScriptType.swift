/// The output script of a followed wallet, the first field of its normalised shape.
public enum ScriptType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Pay to public key hash (BIP44), `pkh(KEY)`.
    case p2pkh
    /// P2WPKH nested in P2SH (BIP49), `sh(wpkh(KEY))`.
    case p2shP2wpkh = "p2sh-p2wpkh"
    /// Native segwit v0 key hash (BIP84), `wpkh(KEY)`.
    case p2wpkh
    /// Taproot key path only (BIP86), `tr(KEY)`.
    case p2tr
    /// Multisig in native segwit v0 script hash, `wsh(sortedmulti(k,KEY,…))`.
    case p2wsh
    /// Multisig in P2WSH nested in P2SH, `sh(wsh(sortedmulti(k,KEY,…)))`.
    case p2shP2wsh = "p2sh-p2wsh"

    /// Whether the script is a multisig one.
    public var isMultisig: Bool { self == .p2wsh || self == .p2shP2wsh }

    /// The BIP44-style purpose of single-key wallets (44, 49, 84, 86); `nil` for multisig.
    public var purpose: UInt32? {
        switch self {
        case .p2pkh: 44
        case .p2shP2wpkh: 49
        case .p2wpkh: 84
        case .p2tr: 86
        case .p2wsh, .p2shP2wsh: nil
        }
    }

    /// `p2pkh`, `p2sh-p2wpkh`, `p2wpkh`, `p2tr`, `p2wsh` or `p2sh-p2wsh`.
    public var description: String { rawValue }
}

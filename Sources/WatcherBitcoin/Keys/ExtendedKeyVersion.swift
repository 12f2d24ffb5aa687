/// The version bytes of an extended public key: BIP32's `xpub`/`tpub` and SLIP-132's script-specific
/// prefixes.
///
/// The prefix says which network a key belongs to and, for SLIP-132 keys, which script the wallet used:
/// `ypub`/`upub` P2SH-P2WPKH (BIP49), `zpub`/`vpub` P2WPKH (BIP84), and the multisig prefixes
/// `Ypub`/`Upub` (P2SH-P2WSH) and `Zpub`/`Vpub` (P2WSH). `xpub`/`tpub` say nothing about the script:
/// alone they mean P2PKH (BIP44), and a descriptor may use them for any script, taproot included.
public enum ExtendedKeyVersion: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Mainnet BIP32 (`0488b21e`).
    case xpub
    /// Mainnet P2SH-P2WPKH, BIP49 (`049d7cb2`).
    case ypub
    /// Mainnet P2WPKH, BIP84 (`04b24746`).
    case zpub
    /// Mainnet multisig P2SH-P2WSH (`0295b43f`).
    case Ypub
    /// Mainnet multisig P2WSH (`02aa7ed3`).
    case Zpub
    /// Test-network BIP32 (`043587cf`).
    case tpub
    /// Test-network P2SH-P2WPKH (`044a5262`).
    case upub
    /// Test-network P2WPKH (`045f1cf6`).
    case vpub
    /// Test-network multisig P2SH-P2WSH (`024289ef`).
    case Upub
    /// Test-network multisig P2WSH (`02575483`).
    case Vpub

    /// The four version bytes of the public key, big-endian.
    public var publicVersion: UInt32 {
        switch self {
        case .xpub: 0x0488_b21e
        case .ypub: 0x049d_7cb2
        case .zpub: 0x04b2_4746
        case .Ypub: 0x0295_b43f
        case .Zpub: 0x02aa_7ed3
        case .tpub: 0x0435_87cf
        case .upub: 0x044a_5262
        case .vpub: 0x045f_1cf6
        case .Upub: 0x0242_89ef
        case .Vpub: 0x0257_5483
        }
    }

    /// The four version bytes of the matching private key (`xprv`, `zprv`, …).
    public var privateVersion: UInt32 {
        switch self {
        case .xpub: 0x0488_ade4
        case .ypub: 0x049d_7878
        case .zpub: 0x04b2_430c
        case .Ypub: 0x0295_b005
        case .Zpub: 0x02aa_7a99
        case .tpub: 0x0435_8394
        case .upub: 0x044a_4e28
        case .vpub: 0x045f_18bc
        case .Upub: 0x0242_85b5
        case .Vpub: 0x0257_5048
        }
    }

    /// The prefix of the matching private key, e.g. `zprv`.
    public var privatePrefix: String { String(rawValue.prefix(1)) + "prv" }

    /// ``BitcoinAddress/Network/mainnet`` or ``BitcoinAddress/Network/testnet`` (which also covers signet
    /// and regtest, whose keys share the test version bytes).
    public var network: BitcoinAddress.Network {
        switch self {
        case .xpub, .ypub, .zpub, .Ypub, .Zpub: .mainnet
        case .tpub, .upub, .vpub, .Upub, .Vpub: .testnet
        }
    }

    /// Whether SLIP-132 registers the prefix for multisig scripts (`Ypub`, `Zpub`, `Upub`, `Vpub`).
    public var isMultisig: Bool {
        switch self {
        case .Ypub, .Zpub, .Upub, .Vpub: true
        default: false
        }
    }

    /// The script a bare key of this prefix stands for: P2PKH for `xpub`/`tpub`, P2SH-P2WPKH for
    /// `ypub`/`upub`, P2WPKH for `zpub`/`vpub`, and the multisig scripts for the capitalised prefixes.
    public var impliedScript: ScriptType {
        switch self {
        case .xpub, .tpub: .p2pkh
        case .ypub, .upub: .p2shP2wpkh
        case .zpub, .vpub: .p2wpkh
        case .Ypub, .Upub: .p2shP2wsh
        case .Zpub, .Vpub: .p2wsh
        }
    }

    /// The plain BIP32 version of the same network (`xpub` or `tpub`), the one descriptors print.
    public var plain: ExtendedKeyVersion { network == .mainnet ? .xpub : .tpub }

    /// Whether keys of this version may be used on `network`: mainnet keys on mainnet only, test keys on
    /// testnet, signet and regtest.
    public func isUsable(on network: BitcoinAddress.Network) -> Bool {
        self.network == .mainnet ? network == .mainnet : network != .mainnet
    }

    /// The version whose public version bytes are `bytes`, if any.
    public init?(publicVersion bytes: UInt32) {
        guard let version = Self.allCases.first(where: { $0.publicVersion == bytes }) else { return nil }
        self = version
    }

    /// The version whose private version bytes are `bytes`, if any.
    public init?(privateVersion bytes: UInt32) {
        guard let version = Self.allCases.first(where: { $0.privateVersion == bytes }) else { return nil }
        self = version
    }

    /// The prefix, e.g. `zpub`.
    public var description: String { rawValue }
}

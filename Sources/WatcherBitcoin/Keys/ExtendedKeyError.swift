/// Why a string is not a usable extended public key, or a derivation from one failed.
///
/// No case carries key material: the caller knows which wallet it was reading and can name it.
public enum ExtendedKeyError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A character is outside the Base58 alphabet. `offset` counts characters from 0.
    case invalidCharacter(offset: Int)
    /// The Base58Check checksum does not match.
    case badChecksum
    /// Longer than any Base58Check text of 78 (or WIF's 33/34) bytes can be: refused before decoding, whose cost
    /// grows with the square of the length. Carries the number of characters.
    case tooLong(Int)
    /// The payload is not 78 bytes.
    case wrongLength(Int)
    /// The version bytes are neither a known public nor a known private version.
    case unknownVersion(UInt32)
    /// Depth 0 (a master key) with a parent fingerprint other than zero.
    case zeroDepthWithParentFingerprint(UInt32)
    /// Depth 0 (a master key) with a child number other than zero.
    case zeroDepthWithChildNumber(UInt32)
    /// The version says public but the key field holds a private key (`00` prefix).
    case privateKeyInPublicVersion
    /// The version says private but the key field holds a public key (`02`/`03` prefix).
    case publicKeyInPrivateVersion
    /// The public key field starts with a byte other than `02`/`03`.
    case invalidPublicKeyPrefix(UInt8)
    /// The private key field starts with a byte other than `00`.
    case invalidPrivateKeyPrefix(UInt8)
    /// The public key is not a point on the curve.
    case invalidPublicKey
    /// The private key is 0 or not below the curve order.
    case privateKeyOutOfRange
    /// A well-formed private key (extended `xprv`/`tprv`/…, or WIF). A watcher only needs public keys.
    /// Carries the kind, e.g. `xprv` or `WIF`, never the key.
    case privateKey(kind: String)
    /// The key belongs to another network (a `tpub` where mainnet is configured, or the other way round).
    case wrongNetwork(key: ExtendedKeyVersion, expected: BitcoinAddress.Network)
    /// CKDpub was asked for a hardened child. Carries the index (with the hardened bit).
    case hardenedDerivation(UInt32)
    /// The derivation tweak for this index was out of range (BIP32 says to skip the index).
    case invalidChild(UInt32)
    /// The key is at depth 255 and has no children.
    case depthOverflow

    /// The message that starts every private-key refusal.
    public static let watchOnlyMessage = "watch-only: give the extended public key"

    /// A sentence naming the problem.
    public var description: String {
        switch self {
        case .invalidCharacter(let offset): "invalid extended key: character at offset \(offset) is not Base58"
        case .badChecksum: "invalid extended key: bad Base58Check checksum"
        case .tooLong(let count): "invalid extended key: \(count) characters, not 111"
        case .wrongLength(let count): "invalid extended key: decodes to \(count) bytes, not 78"
        case .unknownVersion(let version):
            "invalid extended key: unknown version bytes \(Hex.encode(ExtendedPublicKey.bigEndian(version))) (not xpub/ypub/zpub/tpub/upub/vpub, "
                + "Ypub/Zpub/Upub/Vpub, or their private forms)"
        case .zeroDepthWithParentFingerprint(let value):
            "invalid extended key: depth 0 with non-zero parent fingerprint \(Hex.encode(ExtendedPublicKey.bigEndian(value)))"
        case .zeroDepthWithChildNumber(let value): "invalid extended key: depth 0 with non-zero child number \(value)"
        case .privateKeyInPublicVersion:
            "invalid extended key: public version bytes but the key field holds a private key (00 prefix)"
        case .publicKeyInPrivateVersion:
            "invalid extended key: private version bytes but the key field holds a public key"
        case .invalidPublicKeyPrefix(let byte):
            "invalid extended key: public key prefix \(Hex.encode([byte])) (expected 02 or 03)"
        case .invalidPrivateKeyPrefix(let byte):
            "invalid extended key: private key prefix \(Hex.encode([byte])) (expected 00)"
        case .invalidPublicKey: "invalid extended key: the public key is not a point on secp256k1"
        case .privateKeyOutOfRange: "invalid extended key: the private key is not in 1..n-1"
        case .privateKey(let kind): "\(Self.watchOnlyMessage) (this is a private key: \(kind))"
        case .wrongNetwork(let key, let expected):
            "extended key \(key) is for \(key.network == .mainnet ? "mainnet" : "test networks"), "
                + "but the network is \(expected)"
        case .hardenedDerivation(let index):
            "hardened step \(index & 0x7fff_ffff)h after the extended public key: CKDpub cannot derive it"
        case .invalidChild(let index): "child \(index) is invalid (BIP32: skip this index)"
        case .depthOverflow: "the key is at depth 255 and cannot have children"
        }
    }
}

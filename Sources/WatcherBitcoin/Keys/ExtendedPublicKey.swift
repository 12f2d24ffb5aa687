/// A BIP32 extended public key: a public key, its chain code, and where it sits in its tree.
///
/// Parse one with ``init(_:)`` or ``init(_:network:)`` (Base58Check of 78 bytes, any prefix of
/// ``ExtendedKeyVersion``); private keys are refused with ``ExtendedKeyError/privateKey(kind:)``. Derive
/// non-hardened children with ``child(_:)`` (BIP32 CKDpub). Two keys are equal when all their fields are,
/// version included: a `zpub` and the `xpub` with the same key are different values (see ``with(version:)``).
public struct ExtendedPublicKey: Sendable, Hashable, CustomStringConvertible {
    /// The version bytes (the prefix).
    public let version: ExtendedKeyVersion
    /// The number of derivation steps from the master key (0 for a master key).
    public let depth: UInt8
    /// The first four bytes of the parent's HASH160; 0 for a master key.
    public let parentFingerprint: UInt32
    /// The index this key has under its parent; 2^31 and above are hardened.
    public let childNumber: UInt32
    /// The 32-byte chain code.
    public let chainCode: [UInt8]
    /// The 33-byte compressed public key.
    public let publicKey: [UInt8]

    /// Creates a key from its fields, checking them.
    /// - Throws: ``ExtendedKeyError`` when the chain code is not 32 bytes, the public key is not a compressed
    ///   point on the curve, or a depth-0 key has a parent fingerprint or child number.
    public init(
        version: ExtendedKeyVersion,
        depth: UInt8,
        parentFingerprint: UInt32,
        childNumber: UInt32,
        chainCode: [UInt8],
        publicKey: [UInt8]
    ) throws(ExtendedKeyError) {
        if depth == 0 && parentFingerprint != 0 { throw .zeroDepthWithParentFingerprint(parentFingerprint) }
        if depth == 0 && childNumber != 0 { throw .zeroDepthWithChildNumber(childNumber) }
        guard chainCode.count == 32 else { throw .wrongLength(45 + chainCode.count) }
        guard let prefix = publicKey.first, publicKey.count == 33 else { throw .wrongLength(45 + publicKey.count) }
        if prefix == 0x00 { throw .privateKeyInPublicVersion }
        guard prefix == 0x02 || prefix == 0x03 else { throw .invalidPublicKeyPrefix(prefix) }
        guard Secp256k1.isValidPublicKey(publicKey) else { throw .invalidPublicKey }
        self.init(
            unchecked: version,
            depth: depth,
            parentFingerprint: parentFingerprint,
            childNumber: childNumber,
            chainCode: chainCode,
            publicKey: publicKey
        )
    }

    /// Creates a key from fields already known to be valid.
    init(
        unchecked version: ExtendedKeyVersion,
        depth: UInt8,
        parentFingerprint: UInt32,
        childNumber: UInt32,
        chainCode: [UInt8],
        publicKey: [UInt8]
    ) {
        self.version = version
        self.depth = depth
        self.parentFingerprint = parentFingerprint
        self.childNumber = childNumber
        self.chainCode = chainCode
        self.publicKey = publicKey
    }

    /// The network of the version bytes (test keys report ``BitcoinAddress/Network/testnet``).
    public var network: BitcoinAddress.Network { version.network }

    /// Whether this is a master key (depth 0). Addresses derived from a master key rarely match a wallet's:
    /// wallets hand out account keys (depth 3). Callers should warn.
    public var isMaster: Bool { depth == 0 }

    /// Whether the key is a hardened child of its parent.
    public var isHardenedChild: Bool { childNumber >= Secp256k1.hardenedOffset }

    /// HASH160 of the public key, the key's BIP32 identifier.
    public var identifier: [UInt8] { Hash160.hash(publicKey) }

    /// The first four bytes of ``identifier``: what children record as their parent fingerprint.
    public var fingerprint: UInt32 { Hash160.fingerprint(of: publicKey) }

    /// The 78-byte serialization: version, depth, parent fingerprint, child number, chain code, key.
    public var serialized: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(78)
        bytes += Self.bigEndian(version.publicVersion)
        bytes.append(depth)
        bytes += Self.bigEndian(parentFingerprint)
        bytes += Self.bigEndian(childNumber)
        bytes += chainCode
        bytes += publicKey
        return bytes
    }

    /// The Base58Check string, 111 characters.
    public var string: String {
        let body = serialized
        return Base58.encode(body + Base58.checksum(body))
    }

    /// The Base58Check string.
    public var description: String { string }

    /// The same key under other version bytes, e.g. a `zpub` re-serialized as the `xpub` a descriptor takes.
    public func with(version: ExtendedKeyVersion) -> ExtendedPublicKey {
        ExtendedPublicKey(
            unchecked: version,
            depth: depth,
            parentFingerprint: parentFingerprint,
            childNumber: childNumber,
            chainCode: chainCode,
            publicKey: publicKey
        )
    }

    /// BIP32 CKDpub: the non-hardened child at `index`.
    /// - Throws: ``ExtendedKeyError/hardenedDerivation(_:)`` for index ≥ 2^31,
    ///   ``ExtendedKeyError/invalidChild(_:)`` when BIP32 says to skip the index,
    ///   ``ExtendedKeyError/depthOverflow`` at depth 255.
    public func child(_ index: UInt32) throws(ExtendedKeyError) -> ExtendedPublicKey {
        guard depth < 255 else { throw .depthOverflow }
        let (key, code) = try childKey(index)
        return ExtendedPublicKey(
            unchecked: version,
            depth: depth + 1,
            parentFingerprint: fingerprint,
            childNumber: index,
            chainCode: code,
            publicKey: key
        )
    }

    /// Derives along non-hardened steps, e.g. `[0, 7]` for the receive address 7 of an account key.
    public func derive(_ path: [UInt32]) throws(ExtendedKeyError) -> ExtendedPublicKey {
        var key = self
        for index in path { key = try key.child(index) }
        return key
    }

    /// The public key of the child at `index` without the rest of the extended key (no fingerprint is
    /// computed): the per-address step of a wallet.
    public func childPublicKey(_ index: UInt32) throws(ExtendedKeyError) -> [UInt8] {
        try childKey(index).publicKey
    }

    private func childKey(_ index: UInt32) throws(ExtendedKeyError) -> (publicKey: [UInt8], chainCode: [UInt8]) {
        guard index < Secp256k1.hardenedOffset else { throw .hardenedDerivation(index) }
        do {
            return try Secp256k1.childPublicKey(parent: publicKey, chainCode: chainCode, index: index)
        } catch {
            throw .invalidChild(index)
        }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }
}

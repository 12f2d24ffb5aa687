import Crypto

/// HASH160 = RIPEMD160(SHA256(x)), the hash behind P2PKH, P2SH, P2WPKH and key fingerprints.
public enum Hash160: Sendable {
    /// Hashes bytes with SHA-256, then RIPEMD-160.
    /// - Parameter data: the bytes, e.g. a 33-byte compressed public key or a redeem script.
    /// - Returns: the 20-byte hash.
    public static func hash(_ data: [UInt8]) -> [UInt8] {
        RIPEMD160.hash(Array(SHA256.hash(data: data)))
    }

    /// The BIP32 fingerprint of a public key: the first four bytes of its HASH160, big-endian.
    /// - Parameter publicKey: the 33-byte compressed public key.
    public static func fingerprint(of publicKey: [UInt8]) -> UInt32 {
        hash(publicKey).prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }
}

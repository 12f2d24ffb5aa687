import CSecp256k1
import Crypto

/// The only type that calls libsecp256k1; everything else sees byte arrays.
///
/// It uses the library's static context (checked once with `secp256k1_selftest`), which is immutable and
/// safe to share between threads: no call here signs or creates keys from secrets.
public enum Secp256k1: Sendable {
    /// The static context, behind a self-test that runs on first use.
    nonisolated(unsafe) private static let context: OpaquePointer = {
        secp256k1_selftest()
        return csecp256k1_context_static()
    }()

    /// The first index BIP32 calls hardened (2^31).
    public static let hardenedOffset: UInt32 = 0x8000_0000

    /// Whether bytes are a valid public key: 33 bytes starting `02`/`03` or 65 bytes starting `04`, on the
    /// curve. Hybrid keys (`06`/`07`) are refused.
    public static func isValidPublicKey(_ bytes: [UInt8]) -> Bool {
        (try? parse(bytes)) != nil
    }

    /// Checks a public key and returns its 33-byte compressed form.
    /// - Parameter bytes: a 33-byte compressed or 65-byte uncompressed key.
    /// - Throws: ``Secp256k1Error/invalidEncoding(length:prefix:)`` or ``Secp256k1Error/notOnCurve``.
    public static func compressedPublicKey(_ bytes: [UInt8]) throws(Secp256k1Error) -> [UInt8] {
        var key = try parse(bytes)
        return serialize(&key)
    }

    /// Whether 32 bytes are the x coordinate of a point on the curve (a BIP340 x-only key).
    public static func isValidXOnlyPublicKey(_ bytes: [UInt8]) -> Bool {
        var key = secp256k1_xonly_pubkey()
        return bytes.count == 32 && secp256k1_xonly_pubkey_parse(context, &key, bytes) == 1
    }

    /// Whether 32 bytes are a valid secret key (1 ≤ k < n). Used only to name why an extended private key
    /// is malformed; the bytes are never kept.
    public static func isValidPrivateKey(_ bytes: [UInt8]) -> Bool {
        bytes.count == 32 && secp256k1_ec_seckey_verify(context, bytes) == 1
    }

    /// BIP32 CKDpub: the public child of a public parent.
    ///
    /// `I = HMAC-SHA512(chainCode, parent || index)`; the child key is `parent + I[0..<32]·G` and its chain
    /// code `I[32..<64]`. To derive many children of one parent, keep a ``ChildDeriver``.
    /// - Parameters:
    ///   - parent: the parent's 33-byte compressed public key.
    ///   - chainCode: the parent's 32-byte chain code.
    ///   - index: the child index, below 2^31 (hardened children need the private key).
    /// - Returns: the child's compressed public key and chain code.
    /// - Throws: ``Secp256k1Error/hardenedIndex(_:)``, an encoding error for a bad parent, or
    ///   ``Secp256k1Error/tweakOutOfRange`` in the (never observed) case BIP32 says to skip the index.
    public static func childPublicKey(
        parent: [UInt8],
        chainCode: [UInt8],
        index: UInt32
    ) throws(Secp256k1Error) -> (publicKey: [UInt8], chainCode: [UInt8]) {
        try ChildDeriver(publicKey: parent, chainCode: chainCode).child(index)
    }

    /// A parent key prepared for many CKDpub steps: parsed once, so each child costs one HMAC, one
    /// tweak-add and one serialization.
    public struct ChildDeriver: Sendable, Hashable {
        /// The parent's 33-byte compressed public key.
        public let publicKey: [UInt8]
        /// The parent's 32-byte chain code.
        public let chainCode: [UInt8]
        /// The parsed parent key.
        private let point: secp256k1_pubkey

        /// Parses the parent key.
        /// - Throws: ``Secp256k1Error/invalidEncoding(length:prefix:)`` unless the key is 33 bytes
        ///   compressed, ``Secp256k1Error/notOnCurve``.
        public init(publicKey: [UInt8], chainCode: [UInt8]) throws(Secp256k1Error) {
            guard publicKey.count == 33 else {
                throw .invalidEncoding(length: publicKey.count, prefix: publicKey.first)
            }
            self.point = try parse(publicKey)
            self.publicKey = publicKey
            self.chainCode = chainCode
        }

        /// The child's compressed public key and chain code (see ``Secp256k1/childPublicKey(parent:chainCode:index:)``).
        public func child(_ index: UInt32) throws(Secp256k1Error) -> (publicKey: [UInt8], chainCode: [UInt8]) {
            guard index < hardenedOffset else { throw .hardenedIndex(index) }
            var data = publicKey
            data.append(UInt8(truncatingIfNeeded: index >> 24))
            data.append(UInt8(truncatingIfNeeded: index >> 16))
            data.append(UInt8(truncatingIfNeeded: index >> 8))
            data.append(UInt8(truncatingIfNeeded: index))
            let mac = Array(HMAC<SHA512>.authenticationCode(for: data, using: SymmetricKey(data: chainCode)))
            var key = point
            guard secp256k1_ec_pubkey_tweak_add(context, &key, Array(mac[0..<32])) == 1 else {
                throw .tweakOutOfRange
            }
            return (serialize(&key), Array(mac[32..<64]))
        }

        /// Two derivers are equal when their keys and chain codes are.
        public static func == (lhs: ChildDeriver, rhs: ChildDeriver) -> Bool {
            lhs.publicKey == rhs.publicKey && lhs.chainCode == rhs.chainCode
        }

        /// Hashes the key and chain code.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(publicKey)
            hasher.combine(chainCode)
        }
    }

    /// The BIP341 output key for a key-path-only output (BIP86, `tr(KEY)`):
    /// `x(P + hashTapTweak(x(P))·G)`.
    /// - Parameter internalKey: the 32-byte x-only internal key, or a 33-byte compressed key (its x is used).
    /// - Returns: the 32-byte x-only output key.
    public static func tapOutputKey(internal internalKey: [UInt8]) throws(Secp256k1Error) -> [UInt8] {
        let xOnly: [UInt8]
        switch internalKey.count {
        case 32: xOnly = internalKey
        case 33:
            _ = try parse(internalKey)
            xOnly = Array(internalKey[1...])
        default: throw .invalidEncoding(length: internalKey.count, prefix: internalKey.first)
        }
        var key = secp256k1_xonly_pubkey()
        guard secp256k1_xonly_pubkey_parse(context, &key, xOnly) == 1 else { throw .notOnCurve }
        let tweak = TaggedHash.tapTweak(internalKey: xOnly)
        var tweaked = secp256k1_pubkey()
        guard secp256k1_xonly_pubkey_tweak_add(context, &tweaked, &key, tweak) == 1 else {
            throw .tweakOutOfRange
        }
        var output = secp256k1_xonly_pubkey()
        var parity: Int32 = 0
        guard secp256k1_xonly_pubkey_from_pubkey(context, &output, &parity, &tweaked) == 1 else {
            throw .tweakOutOfRange
        }
        var bytes = [UInt8](repeating: 0, count: 32)
        _ = secp256k1_xonly_pubkey_serialize(context, &bytes, &output)
        return bytes
    }

    /// Parses a compressed or uncompressed key, refusing hybrid encodings.
    private static func parse(_ bytes: [UInt8]) throws(Secp256k1Error) -> secp256k1_pubkey {
        switch (bytes.count, bytes.first) {
        case (33, 0x02), (33, 0x03), (65, 0x04): break
        default: throw .invalidEncoding(length: bytes.count, prefix: bytes.first)
        }
        var key = secp256k1_pubkey()
        guard secp256k1_ec_pubkey_parse(context, &key, bytes, bytes.count) == 1 else { throw .notOnCurve }
        return key
    }

    /// Serializes a parsed key in compressed form.
    private static func serialize(_ key: inout secp256k1_pubkey) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 33)
        var length = 33
        _ = secp256k1_ec_pubkey_serialize(context, &bytes, &length, &key, csecp256k1_ec_compressed())
        return bytes
    }
}

/// Why libsecp256k1 refused a key or a derivation step (see ``Secp256k1``).
public enum Secp256k1Error: Error, CustomStringConvertible, Equatable, Sendable {
    /// The bytes are not a public key encoding: 33 bytes starting `02`/`03`, 65 starting `04` or (for an
    /// x-only key) 32 bytes. Carries the length and the first byte.
    case invalidEncoding(length: Int, prefix: UInt8?)
    /// The encoding is well formed but names no point on secp256k1.
    case notOnCurve
    /// CKDpub was asked for a hardened child (index ≥ 2^31), which needs the private key.
    case hardenedIndex(UInt32)
    /// The tweak is not below the curve order, or the result is the point at infinity. BIP32 says to skip
    /// such an index; it has never been seen in practice.
    case tweakOutOfRange

    /// A sentence naming the problem.
    public var description: String {
        switch self {
        case .invalidEncoding(let length, let prefix):
            if length == 65, let prefix, prefix == 0x06 || prefix == 0x07 {
                return "hybrid public keys (prefix 0x0\(prefix)) are not allowed"
            }
            let first = prefix.map { ", starting 0x" + Self.hex($0) } ?? ""
            return "not a public key: \(length) bytes\(first) (expected 33 bytes starting 02/03 or 65 starting 04)"
        case .notOnCurve: return "the public key is not a point on secp256k1"
        case .hardenedIndex(let index):
            return "hardened child \(index - Secp256k1.hardenedOffset)h needs the private key; CKDpub cannot derive it"
        case .tweakOutOfRange:
            return "the derivation tweak is out of range or gives the point at infinity (BIP32: skip this index)"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}

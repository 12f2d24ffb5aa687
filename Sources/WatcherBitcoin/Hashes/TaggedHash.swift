import Crypto

/// BIP340 tagged hashes: `SHA256(SHA256(tag) || SHA256(tag) || data)`.
public enum TaggedHash: Sendable {
    /// The tag of the BIP341 key-path tweak.
    public static let tapTweakTag = "TapTweak"

    /// `SHA256("TapTweak")`, computed once.
    private static let tapTweakTagHash: [UInt8] = Array(SHA256.hash(data: Array(tapTweakTag.utf8)))

    /// Computes a tagged hash.
    /// - Parameters:
    ///   - tag: the tag, e.g. `TapTweak`.
    ///   - data: the bytes to hash.
    /// - Returns: the 32-byte hash.
    public static func sha256(tag: String, _ data: [UInt8]) -> [UInt8] {
        hash(tagHash: Array(SHA256.hash(data: Array(tag.utf8))), data)
    }

    /// The BIP341 tweak of a key with no script tree: `hashTapTweak(x)`.
    /// - Parameter internalKey: the 32-byte x-only internal key.
    /// - Returns: the 32-byte tweak.
    public static func tapTweak(internalKey: [UInt8]) -> [UInt8] {
        hash(tagHash: tapTweakTagHash, internalKey)
    }

    private static func hash(tagHash: [UInt8], _ data: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: tagHash)
        hasher.update(data: tagHash)
        hasher.update(data: data)
        return Array(hasher.finalize())
    }
}

/// Where a descriptor key comes from: `[fingerprint/path]` before the key.
///
/// The fingerprint is the master key's; the path leads from the master key to the key that follows. It is
/// informational for watching (it does not change addresses), but it gives derived addresses their full
/// path, e.g. `m/84'/0'/0'/0/7`.
public struct KeyOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The master key fingerprint (first four bytes of its HASH160).
    public let fingerprint: UInt32
    /// The path from the master key, absolute.
    public let path: DerivationPath

    /// Creates an origin.
    /// - Parameters:
    ///   - fingerprint: the master key fingerprint.
    ///   - path: the indices from the master key (hardened ones with 2^31 added).
    public init(fingerprint: UInt32, path: [UInt32]) {
        self.fingerprint = fingerprint
        self.path = DerivationPath(path, isAbsolute: true)
    }

    /// `[73c5da0a/84h/0h/0h]`: lower-case fingerprint, `h` for hardened steps.
    public var description: String {
        let steps = path.components.map { "/" + DerivationPath.format($0, hardenedMarker: "h") }.joined()
        return "[" + Hex.encode(ExtendedPublicKey.bigEndian(fingerprint)) + steps + "]"
    }

    /// Parses the inside of `[…]`: 8 hex digits, then `/`-separated steps.
    static func parse(_ text: Substring) throws(DescriptorError) -> KeyOrigin {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let fingerprintText = parts[0]
        guard fingerprintText.count == 8, let bytes = Hex.decode(fingerprintText) else {
            throw .invalidFingerprint(DescriptorError.excerpt(fingerprintText))
        }
        var path: [UInt32] = []
        for part in parts.dropFirst() {
            if part.hasPrefix("*") { throw .wildcardInOrigin }
            if part.contains("<") || part.contains(">") || part.contains(";") { throw .multipathInOrigin }
            path.append(try DerivationPath.parseStep(part))
        }
        return KeyOrigin(fingerprint: bytes.reduce(0) { $0 << 8 | UInt32($1) }, path: path)
    }
}

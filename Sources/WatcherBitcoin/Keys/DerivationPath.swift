/// A BIP32 derivation path: from the master key (`m/84'/0'/0'/0/7`) or relative to some key (`0/7`).
public struct DerivationPath: Sendable, Hashable, CustomStringConvertible {
    /// The child indices, hardened ones with 2^31 added.
    public let components: [UInt32]
    /// Whether the path starts at the master key (printed with a leading `m`).
    public let isAbsolute: Bool

    /// Creates a path from indices.
    public init(_ components: [UInt32], isAbsolute: Bool) {
        self.components = components
        self.isAbsolute = isAbsolute
    }

    /// Parses `m/84'/0'/0'/0/7`, `m/84h/0h/0h`, `0/7` or `m`.
    ///
    /// Each step is a decimal number below 2^31 without sign, followed by `'` or `h` when hardened (`H` is
    /// not accepted, as in descriptors). A leading `m` makes the path absolute.
    /// - Returns: `nil` when a step is malformed or the text is empty.
    public init?(_ text: String) {
        var parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let isAbsolute = parts.first == "m"
        if isAbsolute { parts.removeFirst() }
        var components: [UInt32] = []
        for part in parts {
            guard let index = try? Self.parseStep(part) else { return nil }
            components.append(index)
        }
        if components.isEmpty && !isAbsolute { return nil }
        self.init(components, isAbsolute: isAbsolute)
    }

    /// This path with more steps after it.
    public func appending(_ steps: [UInt32]) -> DerivationPath {
        DerivationPath(components + steps, isAbsolute: isAbsolute)
    }

    /// Whether any step is hardened.
    public var hasHardenedStep: Bool { components.contains { $0 >= Secp256k1.hardenedOffset } }

    /// The path with `'` for hardened steps, e.g. `m/84'/0'/0'/0/7` or `0/7`.
    public var description: String { formatted(hardenedMarker: "'") }

    /// The path with the given hardened marker (`'` or `h`).
    public func formatted(hardenedMarker: String) -> String {
        let steps = components.map { Self.format($0, hardenedMarker: hardenedMarker) }
        return ((isAbsolute ? ["m"] : []) + steps).joined(separator: "/")
    }

    /// One step: `7`, or `84h` / `84'` when hardened.
    static func format(_ index: UInt32, hardenedMarker: String) -> String {
        index >= Secp256k1.hardenedOffset
            ? String(index - Secp256k1.hardenedOffset) + hardenedMarker : String(index)
    }

    /// Parses one step: decimal digits (no sign, below 2^31) and an optional `h` or `'`.
    /// - Returns: the index, with 2^31 added when hardened.
    /// - Throws: ``DescriptorError/invalidPathElement(_:)`` or ``DescriptorError/pathElementOutOfRange(_:)``.
    static func parseStep(_ text: Substring) throws(DescriptorError) -> UInt32 {
        var digits = text
        var hardened = false
        if let last = digits.last, last == "h" || last == "'" {
            hardened = true
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw text.isEmpty ? .emptyPathElement : .invalidPathElement(DescriptorError.excerpt(text))
        }
        guard digits.count <= 10, let value = UInt64(digits), value < UInt64(Secp256k1.hardenedOffset) else {
            throw .pathElementOutOfRange(String(text))
        }
        return UInt32(value) + (hardened ? Secp256k1.hardenedOffset : 0)
    }
}

extension Bech32 {
    /// A decoded Bech32 or Bech32m string: its human-readable part, data and checksum variant.
    public struct Decoded: Sendable, Hashable {
        /// The human-readable part, lower-cased.
        public let hrp: String
        /// The 5-bit data values, without the 6-symbol checksum.
        public let data: [UInt8]
        /// The checksum constant the string verified under.
        public let variant: Variant
    }

    /// The longest string BIP173 allows.
    public static let maxLength = 90

    /// The split of a string that passed the structural checks, before its checksum is verified.
    struct Parts {
        /// The lower-cased human-readable part.
        var hrp: String
        /// The 5-bit values after the separator, checksum included.
        var values: [UInt8]
    }

    /// The value of each ASCII byte in ``charset``, or `nil` for bytes outside it (lower case only).
    static let charsetValues: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 128)
        for (value, character) in charset.enumerated() {
            if let ascii = character.asciiValue { table[Int(ascii)] = UInt8(value) }
        }
        return table
    }()

    /// Decodes any Bech32 or Bech32m string (BIP173 / BIP350), whatever its human-readable part.
    ///
    /// Rules: at most 90 characters, every character in ASCII 33...126, not mixed case (all upper case is
    /// accepted and lower-cased), a non-empty human-readable part before the last `1`, at least 6 data
    /// symbols from ``charset``, and a checksum valid under one of the two constants.
    /// - Parameter string: the text to decode.
    /// - Returns: the lower-cased human-readable part, the data without checksum, and the variant.
    /// - Throws: an ``AddressError`` naming the first rule the string breaks.
    public static func decode(_ string: String) throws(AddressError) -> Decoded {
        let parts = try split(string)
        let variant = try verifyChecksum(parts, of: string)
        return Decoded(hrp: parts.hrp, data: Array(parts.values.dropLast(6)), variant: variant)
    }

    /// Checks length, characters, case and separator, and maps the data part to 5-bit values.
    static func split(_ string: String) throws(AddressError) -> Parts {
        let scalars = Array(string.unicodeScalars)
        if scalars.isEmpty { throw .empty }
        if scalars.count > maxLength { throw .tooLong(string, length: scalars.count, limit: maxLength) }
        var hasLower = false
        var hasUpper = false
        for (offset, scalar) in scalars.enumerated() {
            guard (33...126).contains(scalar.value) else {
                throw .invalidCharacter(string, character: Character(scalar), offset: offset)
            }
            if ("a"..."z").contains(scalar) { hasLower = true }
            if ("A"..."Z").contains(scalar) { hasUpper = true }
        }
        if hasLower && hasUpper { throw .mixedCase(string) }
        let lower = scalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32) ?? $0 : $0 }
        guard let separator = lower.lastIndex(of: "1") else { throw .missingSeparator(string) }
        if separator == 0 { throw .emptyHRP(string) }
        if lower.count - separator - 1 < 6 { throw .checksumTooShort(string) }
        var values: [UInt8] = []
        values.reserveCapacity(lower.count - separator - 1)
        for offset in (separator + 1)..<lower.count {
            guard let value = charsetValues[Int(lower[offset].value)] else {
                throw .invalidCharacter(string, character: Character(scalars[offset]), offset: offset)
            }
            values.append(value)
        }
        var hrp = ""
        hrp.unicodeScalars.append(contentsOf: lower[..<separator])
        return Parts(hrp: hrp, values: values)
    }

    /// Returns the variant whose constant the checksum matches.
    static func verifyChecksum(_ parts: Parts, of string: String) throws(AddressError) -> Variant {
        switch polymod(expand(hrp: parts.hrp) + parts.values) {
        case Variant.bech32.constant: .bech32
        case Variant.bech32m.constant: .bech32m
        default: throw .badBech32Checksum(string)
        }
    }
}

extension Base58 {
    /// The value of each ASCII byte in the alphabet, or `nil` for bytes outside it.
    static let digitValues: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 128)
        for (value, byte) in alphabet.enumerated() {
            table[Int(byte)] = UInt8(value)
        }
        return table
    }()

    /// The base-58 digit value of a character, or `nil` when it is not in the alphabet.
    static func digitValue(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value < 128 ? digitValues[Int(scalar.value)] : nil
    }

    /// Decodes a Base58 string (no checksum); each leading `1` becomes a leading zero byte.
    ///
    /// Base58 is case-sensitive, so the string is used exactly as given: no trimming, no case folding.
    /// - Parameter string: the Base58 text; the empty string decodes to no bytes.
    /// - Returns: the bytes, or `nil` when the string holds a character outside ``alphabet``.
    public static func decode(_ string: String) -> [UInt8]? {
        var zeros = 0
        var seenNonZero = false
        var bytes: [UInt8] = []  // base-256 digits, least significant first
        for scalar in string.unicodeScalars {
            guard let digit = digitValue(scalar) else { return nil }
            if !seenNonZero {
                if digit == 0 {
                    zeros += 1
                    continue
                }
                seenNonZero = true
            }
            var carry = Int(digit)
            for i in bytes.indices {
                carry += Int(bytes[i]) * 58
                bytes[i] = UInt8(carry & 0xff)
                carry >>= 8
            }
            while carry > 0 {
                bytes.append(UInt8(carry & 0xff))
                carry >>= 8
            }
        }
        return [UInt8](repeating: 0, count: zeros) + bytes.reversed()
    }
}

/// The BIP380 descriptor checksum: 8 characters after `#`, from a 40-bit BCH code over the descriptor.
public enum DescriptorChecksum: Sendable {
    /// The 96 characters a descriptor may contain, in three groups of 32.
    public static let inputCharset = Array(
        "0123456789()[],'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#\"\\ ".utf8
    )

    /// The 32 characters of the checksum.
    public static let checksumCharset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)

    private static let generators: [UInt64] = [
        0xf5_dee5_1989, 0xa9_fdca_3312, 0x1b_ab10_e32d, 0x37_06b1_677a, 0x64_4d62_6ffd,
    ]

    /// The position of each ASCII byte in ``inputCharset``, or -1.
    private static let positions: [Int] = {
        var table = [Int](repeating: -1, count: 128)
        for (position, byte) in inputCharset.enumerated() { table[Int(byte)] = position }
        return table
    }()

    /// Computes the checksum of a descriptor (without `#`).
    /// - Returns: the 8 checksum characters, or `nil` when the text has a character outside ``inputCharset``.
    public static func checksum(_ descriptor: some StringProtocol) -> String? {
        var symbols: [UInt64] = []
        var groups: [Int] = []
        for scalar in descriptor.unicodeScalars {
            guard scalar.value < 128, case let position = positions[Int(scalar.value)], position >= 0 else {
                return nil
            }
            symbols.append(UInt64(position & 31))
            groups.append(position >> 5)
            if groups.count == 3 {
                symbols.append(UInt64(groups[0] * 9 + groups[1] * 3 + groups[2]))
                groups = []
            }
        }
        if groups.count == 1 { symbols.append(UInt64(groups[0])) }
        if groups.count == 2 { symbols.append(UInt64(groups[0] * 3 + groups[1])) }
        symbols += [UInt64](repeating: 0, count: 8)
        let value = polymod(symbols) ^ 1
        let characters = (0..<8).map { checksumCharset[Int((value >> (5 * (7 - UInt64($0)))) & 31)] }
        return String(decoding: characters, as: UTF8.self)
    }

    /// `descriptor#checksum`.
    public static func appending(to descriptor: String) -> String? {
        checksum(descriptor).map { descriptor + "#" + $0 }
    }

    /// Splits off and verifies the optional checksum.
    ///
    /// Without `#` the whole text is returned (the checksum is optional on input). With one, it must be 8
    /// characters and match.
    /// - Returns: the descriptor without its checksum.
    /// - Throws: ``DescriptorError/invalidCharacter(_:offset:)``, ``DescriptorError/multipleChecksumSeparators``,
    ///   ``DescriptorError/missingChecksum``, ``DescriptorError/checksumLength(_:)`` or
    ///   ``DescriptorError/checksumMismatch(expected:found:)`` (which names the expected checksum).
    public static func verified(_ text: String) throws(DescriptorError) -> Substring {
        let parts = text.split(separator: "#", omittingEmptySubsequences: false)
        if parts.count > 2 { throw .multipleChecksumSeparators }
        let body = parts[0]
        for (offset, scalar) in body.unicodeScalars.enumerated()
        where scalar.value >= 128 || positions[Int(scalar.value)] < 0 {
            throw .invalidCharacter(Character(scalar), offset: offset)
        }
        guard parts.count == 2 else { return body }
        let found = parts[1]
        if found.isEmpty { throw .missingChecksum }
        if found.count != 8 { throw .checksumLength(found.count) }
        let expected = checksum(body) ?? ""
        guard found == expected else { throw .checksumMismatch(expected: expected, found: String(found)) }
        return body
    }

    private static func polymod(_ symbols: [UInt64]) -> UInt64 {
        var check: UInt64 = 1
        for value in symbols {
            let top = check >> 35
            check = (check & 0x7_ffff_ffff) << 5 ^ value
            for i in 0..<5 where (top >> UInt64(i)) & 1 == 1 {
                check ^= generators[i]
            }
        }
        return check
    }
}

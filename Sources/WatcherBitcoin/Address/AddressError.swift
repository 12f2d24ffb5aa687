/// Why a string is not a valid Bitcoin address (or Bech32 string).
///
/// Every case except ``empty`` carries the rejected input first, so ``description`` reads
/// `invalid address "bc1qxyz": bad bech32 checksum` on its own. ``reason`` is the same text without the
/// input, and ``input`` is the rejected string.
public enum AddressError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The string is empty.
    case empty
    /// The string is longer than any address (`limit` characters; 90 for Bech32).
    case tooLong(String, length: Int, limit: Int)
    /// A character is not allowed at that place: outside ASCII 33...126, outside the Bech32 or Base58
    /// alphabet. `offset` counts Unicode scalars from 0.
    case invalidCharacter(String, character: Character, offset: Int)
    /// A Bech32 string mixes upper and lower case (all upper case is fine).
    case mixedCase(String)
    /// A Bech32 string has no `1` separator.
    case missingSeparator(String)
    /// A Bech32 string has nothing before its separator.
    case emptyHRP(String)
    /// A Bech32 string has fewer than 6 symbols after its separator.
    case checksumTooShort(String)
    /// The Bech32 checksum matches neither the Bech32 nor the Bech32m constant.
    case badBech32Checksum(String)
    /// The Base58Check checksum (double SHA-256) does not match.
    case badBase58Checksum(String)
    /// The checksum is valid but of the wrong variant for the witness version: v0 must use Bech32 and
    /// v1 to v16 must use Bech32m. `expected` is the variant the version requires.
    case wrongChecksumVariant(String, version: UInt8, expected: Bech32.Variant)
    /// The human-readable part is not `bc`, `tb` or `bcrt`.
    case unknownHRP(String, hrp: String)
    /// A segwit address has no data before its checksum, so no witness version.
    case emptyData(String)
    /// The witness version is above 16.
    case invalidWitnessVersion(String, version: UInt8)
    /// The witness program is not 2 to 40 bytes long, or a v0 program is not 20 or 32 bytes.
    case invalidProgramLength(String, version: UInt8, length: Int)
    /// The 5-to-8-bit conversion left more than 4 bits of padding.
    case excessPadding(String)
    /// The 5-to-8-bit conversion left padding bits that are not zero.
    case nonZeroPadding(String)
    /// A Base58 address does not decode to 25 bytes (version, 20-byte hash, checksum).
    case wrongLength(String, byteCount: Int)
    /// A Base58 address has a version byte other than 0x00, 0x05, 0x6f or 0xc4.
    case unknownVersion(String, version: UInt8)
    /// The address is valid but for another network than the one required.
    case wrongNetwork(String, expected: BitcoinAddress.Network, actual: BitcoinAddress.Network)

    /// The rejected string (empty for ``empty``).
    public var input: String {
        switch self {
        case .empty: ""
        case .tooLong(let text, _, _), .invalidCharacter(let text, _, _), .mixedCase(let text),
            .missingSeparator(let text), .emptyHRP(let text), .checksumTooShort(let text),
            .badBech32Checksum(let text), .badBase58Checksum(let text), .wrongChecksumVariant(let text, _, _),
            .unknownHRP(let text, _), .emptyData(let text), .invalidWitnessVersion(let text, _),
            .invalidProgramLength(let text, _, _), .excessPadding(let text), .nonZeroPadding(let text),
            .wrongLength(let text, _), .unknownVersion(let text, _), .wrongNetwork(let text, _, _):
            text
        }
    }

    /// A short phrase naming the problem, without the input.
    public var reason: String {
        switch self {
        case .empty: "the address is empty"
        case .tooLong(_, let length, let limit): "too long (\(length) characters, at most \(limit))"
        case .invalidCharacter(_, let character, let offset):
            "invalid character \(Self.show(character)) at offset \(offset)"
        case .mixedCase: "mixes upper and lower case"
        case .missingSeparator: "no \"1\" separator"
        case .emptyHRP: "empty human-readable part before the \"1\" separator"
        case .checksumTooShort: "checksum too short (fewer than 6 characters after the separator)"
        case .badBech32Checksum: "bad bech32 checksum"
        case .badBase58Checksum: "bad base58check checksum"
        case .wrongChecksumVariant(_, let version, let expected):
            "witness v\(version) must use \(expected == .bech32 ? "bech32" : "bech32m"), "
                + "not \(expected == .bech32 ? "bech32m" : "bech32")"
        case .unknownHRP(_, let hrp): "unknown prefix \"\(hrp)\" (expected bc, tb or bcrt)"
        case .emptyData: "no witness version or program"
        case .invalidWitnessVersion(_, let version): "witness version \(version) is above 16"
        case .invalidProgramLength(_, let version, let length):
            version == 0
                ? "witness v0 program must be 20 or 32 bytes, not \(length)"
                : "witness program must be 2 to 40 bytes, not \(length)"
        case .excessPadding: "more than 4 bits of padding"
        case .nonZeroPadding: "non-zero padding bits"
        case .wrongLength(_, let count): "decodes to \(count) bytes, not 25"
        case .unknownVersion(_, let version):
            "unknown version byte 0x\(Self.hex(UInt32(version), width: 2)) (expected 0x00, 0x05, 0x6f or 0xc4)"
        case .wrongNetwork(_, let expected, let actual): "a \(actual) address, expected \(expected)"
        }
    }

    /// `invalid address "<input>": <reason>`, with the input escaped and cut to 100 characters.
    public var description: String {
        let text = input.count > 100 ? String(input.prefix(100)) + "…" : input
        return "invalid address \(text.debugDescription): \(reason)"
    }

    /// Shows a printable ASCII character in quotes and anything else as `U+XXXX`.
    private static func show(_ character: Character) -> String {
        if let ascii = character.asciiValue, (33...126).contains(ascii) {
            return "\"\(character)\""
        }
        return character.unicodeScalars.map { "U+" + hex($0.value, width: 4) }.joined(separator: " ")
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: width > 2)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

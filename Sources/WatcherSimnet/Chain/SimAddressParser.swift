import WatcherCore

/// Parses mainnet address text into a ``SimAddress``, checking checksums.
///
/// Validation is a canonical round trip: the text is decoded, then re-encoded with WatcherCore's
/// `Base58` and `Bech32` encoders, and must come back identical. That checks the checksum, the
/// Bech32/Bech32m variant for the witness version, and zero padding, without a second checksum
/// implementation.
public enum SimAddressParser: Sendable {
    /// Why a string is not a usable mainnet address.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text is empty.
        case empty
        /// The text is neither base58 nor bech32, or has a bad checksum.
        case unknownFormat
        /// The text is an address of another network (testnet, regtest).
        case wrongNetwork

        public var description: String {
            switch self {
            case .empty: "empty address"
            case .unknownFormat: "decoded address is of unknown format"
            case .wrongNetwork: "address is not for mainnet"
            }
        }
    }

    private static let base58Alphabet: [UInt8] = Array(
        "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8
    )
    private static let bech32Charset: [UInt8] = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)

    /// Decodes `text` as a mainnet address.
    /// - Throws: ``Failure`` when the text is not a valid mainnet address.
    public static func decode(_ text: String) throws(Failure) -> SimAddress {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= 90 else { throw .unknownFormat }
        let lower = text.lowercased()
        if lower.hasPrefix("bc1") {
            return try decodeSegwit(text, lower: lower)
        }
        if lower.hasPrefix("tb1") || lower.hasPrefix("bcrt1") { throw .wrongNetwork }
        return try decodeBase58(text)
    }

    private static func decodeSegwit(_ text: String, lower: String) throws(Failure) -> SimAddress {
        // Mixed case is invalid; all upper case is allowed.
        guard text == lower || text == text.uppercased() else { throw .unknownFormat }
        let bytes = Array(lower.utf8)
        guard let separator = bytes.lastIndex(of: UInt8(ascii: "1")), separator == 2 else { throw .unknownFormat }
        var symbols: [UInt8] = []
        for char in bytes[(separator + 1)...] {
            guard let value = bech32Charset.firstIndex(of: char) else { throw .unknownFormat }
            symbols.append(UInt8(value))
        }
        guard symbols.count >= 7 else { throw .unknownFormat }
        let version = symbols[0]
        guard version <= 16,
            let program = Bech32.convertBits(Array(symbols[1..<(symbols.count - 6)]), from: 5, to: 8, pad: false),
            (2...40).contains(program.count)
        else { throw .unknownFormat }
        if version == 0 && program.count != 20 && program.count != 32 { throw .unknownFormat }
        guard Bech32.segwitAddress(hrp: "bc", version: version, program: program) == lower else {
            throw .unknownFormat
        }
        let kind: SimAddress.Kind =
            switch (version, program.count) {
            case (0, 20): .p2wpkh
            case (0, _): .p2wsh
            case (1, 32): .p2tr
            default: .witnessUnknown
            }
        return SimAddress(string: lower, kind: kind, witnessVersion: version, program: program)
    }

    private static func decodeBase58(_ text: String) throws(Failure) -> SimAddress {
        guard let bytes = base58Decode(text), bytes.count == 25 else { throw .unknownFormat }
        let version = bytes[0]
        let payload = Array(bytes[1..<21])
        guard Base58.encodeCheck(version: version, payload: payload) == text else { throw .unknownFormat }
        switch version {
        case 0x00: return SimAddress(string: text, kind: .p2pkh, witnessVersion: nil, program: payload)
        case 0x05: return SimAddress(string: text, kind: .p2sh, witnessVersion: nil, program: payload)
        case 0x6f, 0xc4: throw .wrongNetwork
        default: throw .unknownFormat
        }
    }

    private static func base58Decode(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []  // big-endian magnitude, least significant last
        for char in text.utf8 {
            guard let digit = base58Alphabet.firstIndex(of: char) else { return nil }
            var carry = digit
            for index in bytes.indices.reversed() {
                carry += Int(bytes[index]) * 58
                bytes[index] = UInt8(carry & 0xff)
                carry >>= 8
            }
            while carry > 0 {
                bytes.insert(UInt8(carry & 0xff), at: 0)
                carry >>= 8
            }
            if bytes.count > 64 { return nil }
        }
        let zeros = text.utf8.prefix { $0 == base58Alphabet[0] }.count
        return [UInt8](repeating: 0, count: zeros) + bytes
    }
}

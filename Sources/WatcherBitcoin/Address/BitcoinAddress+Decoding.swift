extension BitcoinAddress {
    /// Whether to read the text as Bech32 rather than Base58.
    ///
    /// Bech32 when it starts with `bc1`, `tb1` or `bcrt1` in any case; otherwise Base58 when every character
    /// is in the Base58 alphabet; otherwise Bech32 when it is not mixed case and has a `1` separator after
    /// its first character followed by at least 6 Bech32 symbols (an unknown prefix such as `tc1…`).
    /// Everything else is read as Base58, which names the first character outside its alphabet.
    static func looksLikeBech32(_ scalars: [Unicode.Scalar]) -> Bool {
        let lower = scalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32) ?? $0 : $0 }
        for network in Network.allCases {
            let prefix = Array((network.hrp + "1").unicodeScalars)
            if lower.starts(with: prefix) { return true }
        }
        if scalars.allSatisfy({ Base58.digitValue($0) != nil }) { return false }
        let hasLower = scalars.contains { ("a"..."z").contains($0) }
        let hasUpper = scalars.contains { ("A"..."Z").contains($0) }
        guard !(hasLower && hasUpper), let separator = lower.lastIndex(of: "1"), separator > 0 else {
            return false
        }
        let data = lower[(separator + 1)...]
        return data.count >= 6
            && data.allSatisfy { $0.value < 128 && Bech32.charsetValues[Int($0.value)] != nil }
    }

    /// Validates a native segwit address (BIP173 / BIP350).
    ///
    /// Checks, in the order of the BIP350 reference decoder once the string is well formed: known
    /// human-readable part, checksum, non-empty data, 5-to-8-bit padding, program length 2...40, witness
    /// version 0...16, v0 program length 20 or 32, and the checksum variant for the version.
    static func decodeSegwit(_ text: String) throws(AddressError) -> BitcoinAddress {
        let parts = try Bech32.split(text)
        guard let network = Network(hrp: parts.hrp) else { throw .unknownHRP(text, hrp: parts.hrp) }
        let variant = try Bech32.verifyChecksum(parts, of: text)
        let data = parts.values.dropLast(6)
        guard let version = data.first else { throw .emptyData(text) }
        let program = try regroup(Array(data.dropFirst()), text: text)
        guard (2...40).contains(program.count) else {
            throw .invalidProgramLength(text, version: version, length: program.count)
        }
        guard version <= 16 else { throw .invalidWitnessVersion(text, version: version) }
        if version == 0 && program.count != 20 && program.count != 32 {
            throw .invalidProgramLength(text, version: version, length: program.count)
        }
        let expected: Bech32.Variant = version == 0 ? .bech32 : .bech32m
        guard variant == expected else {
            throw .wrongChecksumVariant(text, version: version, expected: expected)
        }
        let kind: Kind =
            switch (version, program.count) {
            case (0, 20): .p2wpkh
            case (0, _): .p2wsh
            case (1, 32): .p2tr
            default: .witnessUnknown(version: version)
            }
        let canonical = Bech32.segwitAddress(hrp: parts.hrp, version: version, program: program)
        return BitcoinAddress(string: canonical, network: network, kind: kind, program: program)
    }

    /// Converts 5-bit symbols to bytes, rejecting more than 4 bits of padding or non-zero padding.
    static func regroup(_ symbols: [UInt8], text: String) throws(AddressError) -> [UInt8] {
        var accumulator: UInt32 = 0
        var bits = 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(symbols.count * 5 / 8)
        for symbol in symbols {
            accumulator = (accumulator << 5 | UInt32(symbol)) & 0xfff
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((accumulator >> UInt32(bits)) & 0xff))
            }
        }
        if bits >= 5 { throw .excessPadding(text) }
        if accumulator & ((1 << UInt32(bits)) - 1) != 0 { throw .nonZeroPadding(text) }
        return bytes
    }

    /// Validates a Base58Check P2PKH or P2SH address.
    ///
    /// Checks the alphabet, a decoded length of 25 bytes, the double-SHA-256 checksum and the version byte.
    static func decodeBase58(_ text: String) throws(AddressError) -> BitcoinAddress {
        for (offset, scalar) in text.unicodeScalars.enumerated() where Base58.digitValue(scalar) == nil {
            throw .invalidCharacter(text, character: Character(scalar), offset: offset)
        }
        guard let bytes = Base58.decode(text) else { throw .badBase58Checksum(text) }
        guard bytes.count == 25 else { throw .wrongLength(text, byteCount: bytes.count) }
        let body = Array(bytes.prefix(21))
        guard Base58.checksum(body) == Array(bytes.suffix(4)) else { throw .badBase58Checksum(text) }
        let hash = Array(body.dropFirst())
        let (network, kind): (Network, Kind)
        switch body[0] {
        case 0x00: (network, kind) = (.mainnet, .p2pkh)
        case 0x05: (network, kind) = (.mainnet, .p2sh)
        case 0x6f: (network, kind) = (.testnet, .p2pkh)
        case 0xc4: (network, kind) = (.testnet, .p2sh)
        default: throw .unknownVersion(text, version: body[0])
        }
        return BitcoinAddress(string: text, network: network, kind: kind, program: hash)
    }
}

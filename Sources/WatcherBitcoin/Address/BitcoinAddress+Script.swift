import Crypto

extension BitcoinAddress {
    /// The scriptPubKey an address pays to, decoded straight from its text, with the checks that matter for it:
    /// a Bech32/Bech32m address's checksum (and its variant for the witness version), padding and program length;
    /// a Base58Check address's checksum, length and P2PKH/P2SH version byte. `nil` for anything else.
    ///
    /// What block scanning runs for each input and output of a block (16,000 of them in a 4,000-transaction
    /// block): unlike ``init(_:)``, it builds no canonical string and allocates only the script. It accepts the
    /// addresses of every network (a script does not say its network), as a block from one chain holds one kind.
    public static func scriptPubKey(fromAddress text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= 14, bytes.count <= 90 else { return nil }
            if let separator = bytes.lastIndex(of: UInt8(ascii: "1")), separator >= 2, separator <= 4,
                bech32Prefix(bytes, separator)
            {
                return segwitScript(bytes, separator)
            }
            return base58Script(bytes)
        }
    }

    /// Whether the text before the `1` is `bc`, `tb` or `bcrt`, in either case.
    private static func bech32Prefix(_ bytes: UnsafeBufferPointer<UInt8>, _ separator: Int) -> Bool {
        let lower = bytes[0..<separator].map { $0 | 0x20 }
        return lower == Array("bc".utf8) || lower == Array("tb".utf8) || lower == Array("bcrt".utf8)
    }

    private static func segwitScript(_ bytes: UnsafeBufferPointer<UInt8>, _ separator: Int) -> [UInt8]? {
        var chk: UInt32 = 1
        func step(_ value: UInt8) {
            let top = chk >> 25
            chk = (chk & 0x1ff_ffff) << 5 ^ UInt32(value)
            for i in 0..<5 where (top >> UInt32(i)) & 1 == 1 { chk ^= Bech32.generator[i] }
        }
        var lower = false
        var upper = false
        for byte in bytes {
            if byte >= 0x61 && byte <= 0x7a { lower = true }
            if byte >= 0x41 && byte <= 0x5a { upper = true }
        }
        if lower && upper { return nil }
        for index in 0..<separator { step((bytes[index] | 0x20) >> 5) }
        step(0)
        for index in 0..<separator { step((bytes[index] | 0x20) & 31) }
        let count = bytes.count - separator - 1
        guard count >= 7 else { return nil }
        var version: UInt8 = 0
        var accumulator: UInt32 = 0
        var bits = 0
        var program: [UInt8] = []
        program.reserveCapacity(42)
        for position in 0..<count {
            let byte = bytes[separator + 1 + position] | 0x20
            guard byte < 128, let value = Bech32.charsetValues[Int(byte)] else { return nil }
            step(value)
            if position == 0 {
                version = value
            } else if position < count - 6 {
                accumulator = (accumulator << 5 | UInt32(value)) & 0xfff
                bits += 5
                if bits >= 8 {
                    bits -= 8
                    program.append(UInt8((accumulator >> UInt32(bits)) & 0xff))
                }
            }
        }
        guard bits < 5, accumulator & ((1 << UInt32(bits)) - 1) == 0, version <= 16,
            (2...40).contains(program.count), version != 0 || program.count == 20 || program.count == 32,
            chk == (version == 0 ? Bech32.Variant.bech32 : .bech32m).constant
        else { return nil }
        return [version == 0 ? 0 : 0x50 + version, UInt8(program.count)] + program
    }

    private static func base58Script(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // 25 bytes, big-endian, built digit by digit.
        var value = [UInt8](repeating: 0, count: 25)
        for byte in bytes {
            guard byte < 128, let digit = Base58.digitValues[Int(byte)] else { return nil }
            var carry = UInt32(digit)
            for index in stride(from: 24, through: 0, by: -1) {
                carry += UInt32(value[index]) * 58
                value[index] = UInt8(carry & 0xff)
                carry >>= 8
            }
            guard carry == 0 else { return nil }
        }
        // Exactly as many leading zero bytes as leading `1`s (the P2PKH version byte 0x00 is one): fewer zeros
        // than `1`s, or more (a shorter payload), is not a 25-byte address.
        let leading = bytes.prefix { $0 == UInt8(ascii: "1") }.count
        var zeros = 0
        while zeros < 25, value[zeros] == 0 { zeros += 1 }
        guard zeros == leading else { return nil }
        let checksum = value.withUnsafeBytes { raw -> Bool in
            let first = SHA256.hash(data: UnsafeRawBufferPointer(rebasing: raw[0..<21]))
            let second = first.withUnsafeBytes { SHA256.hash(data: $0) }
            return second.withUnsafeBytes { Array($0.prefix(4)) } == Array(value[21..<25])
        }
        guard checksum else { return nil }
        let hash = Array(value[1..<21])
        switch value[0] {
        case 0x00, 0x6f: return [0x76, 0xa9, 0x14] + hash + [0x88, 0xac]
        case 0x05, 0xc4: return [0xa9, 0x14] + hash + [0x87]
        default: return nil
        }
    }
}

/// Bech32 (BIP173) and Bech32m (BIP350) encoding, the checksum format of native segwit addresses.
public enum Bech32: Sendable {
    /// Which checksum constant a string uses.
    public enum Variant: Sendable, Equatable {
        case bech32
        case bech32m

        var constant: UInt32 { self == .bech32 ? 1 : 0x2bc8_30a3 }
    }

    /// The 32-symbol data alphabet.
    public static let charset: [Character] = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l")

    static let generator: [UInt32] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3]

    static func polymod(_ values: [UInt8]) -> UInt32 {
        var chk: UInt32 = 1
        for value in values {
            let top = chk >> 25
            chk = (chk & 0x1ff_ffff) << 5 ^ UInt32(value)
            for i in 0..<5 where (top >> UInt32(i)) & 1 == 1 {
                chk ^= generator[i]
            }
        }
        return chk
    }

    static func expand(hrp: String) -> [UInt8] {
        let bytes = Array(hrp.utf8)
        return bytes.map { $0 >> 5 } + [0] + bytes.map { $0 & 31 }
    }

    static func checksum(hrp: String, data: [UInt8], variant: Variant) -> [UInt8] {
        let values = expand(hrp: hrp) + data + [0, 0, 0, 0, 0, 0]
        let mod = polymod(values) ^ variant.constant
        return (0..<6).map { UInt8((mod >> (5 * (5 - UInt32($0)))) & 31) }
    }

    /// Encodes 5-bit `data` under a human-readable part.
    /// - Parameters:
    ///   - hrp: the lower-case human-readable part, e.g. `bc`.
    ///   - data: 5-bit values (each below 32).
    ///   - variant: the checksum constant to use.
    /// - Returns: the lower-case bech32 string.
    public static func encode(hrp: String, data: [UInt8], variant: Variant) -> String {
        let combined = data + checksum(hrp: hrp, data: data, variant: variant)
        return hrp + "1" + String(combined.map { charset[Int($0)] })
    }

    /// Regroups bits, e.g. 8-bit bytes into 5-bit symbols.
    /// - Returns: the regrouped values, or `nil` when `pad` is false and the leftover bits are not zero padding.
    public static func convertBits(_ data: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
        var acc = 0
        var bits = 0
        var result: [UInt8] = []
        let maxValue = (1 << to) - 1
        for value in data {
            if Int(value) >> from != 0 { return nil }
            acc = (acc << from) | Int(value)
            bits += from
            while bits >= to {
                bits -= to
                result.append(UInt8((acc >> bits) & maxValue))
            }
        }
        if pad {
            if bits > 0 { result.append(UInt8((acc << (to - bits)) & maxValue)) }
        } else if bits >= from || ((acc << (to - bits)) & maxValue) != 0 {
            return nil
        }
        return result
    }

    /// Encodes a segwit address: version 0 with Bech32, versions 1 to 16 with Bech32m.
    /// - Parameters:
    ///   - hrp: `bc`, `tb` or `bcrt`.
    ///   - version: the witness version, 0 to 16.
    ///   - program: the witness program, 2 to 40 bytes.
    public static func segwitAddress(hrp: String, version: UInt8, program: [UInt8]) -> String {
        let data = [version] + (convertBits(program, from: 8, to: 5, pad: true) ?? [])
        return encode(hrp: hrp, data: data, variant: version == 0 ? .bech32 : .bech32m)
    }
}

import Crypto

/// Base58 and Base58Check, the encoding of legacy P2PKH and P2SH addresses.
public enum Base58: Sendable {
    /// The alphabet, without `0`, `O`, `I` and `l`.
    public static let alphabet: [UInt8] = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

    /// Encodes bytes; each leading zero byte becomes a leading `1`.
    public static func encode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        var digits: [UInt8] = []  // base-58 digits, least significant first
        for byte in bytes {
            var carry = Int(byte)
            for i in digits.indices {
                carry += Int(digits[i]) << 8
                digits[i] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.append(UInt8(carry % 58))
                carry /= 58
            }
        }
        let leading = [UInt8](repeating: alphabet[0], count: zeros)
        return String(decoding: leading + digits.reversed().map { alphabet[Int($0)] }, as: UTF8.self)
    }

    /// The first four bytes of SHA256(SHA256(bytes)).
    public static func checksum(_ bytes: [UInt8]) -> [UInt8] {
        let once = SHA256.hash(data: bytes)
        let twice = SHA256.hash(data: Array(once))
        return Array(Array(twice).prefix(4))
    }

    /// Encodes `version || payload || checksum`.
    /// - Parameters:
    ///   - version: the version byte (0x00 P2PKH, 0x05 P2SH on mainnet).
    ///   - payload: the 20-byte hash.
    public static func encodeCheck(version: UInt8, payload: [UInt8]) -> String {
        let body = [version] + payload
        return encode(body + checksum(body))
    }
}

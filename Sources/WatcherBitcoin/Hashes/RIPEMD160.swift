/// RIPEMD-160, in Swift.
///
/// swift-crypto does not provide it, and Bitcoin needs it for HASH160 (see ``Hash160``). This is the
/// designers' algorithm: one compression function over 64-byte blocks, five rounds of sixteen steps on two
/// parallel lines, little-endian words and a little-endian bit length in the padding.
public enum RIPEMD160: Sendable {
    /// The digest length in bytes.
    public static let byteCount = 20

    /// Hashes a message.
    /// - Parameter message: the bytes to hash.
    /// - Returns: the 20-byte digest.
    public static func hash(_ message: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0
        )
        let fullBlocks = message.count / 64
        message.withUnsafeBufferPointer { buffer in
            for block in 0..<fullBlocks {
                compress(&state, UnsafeBufferPointer(rebasing: buffer[(block * 64)..<(block * 64 + 64)]))
            }
        }
        var tail = Array(message[(fullBlocks * 64)...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for shift in stride(from: 0, to: 64, by: 8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> shift)) }
        tail.withUnsafeBufferPointer { buffer in
            for block in 0..<(buffer.count / 64) {
                compress(&state, UnsafeBufferPointer(rebasing: buffer[(block * 64)..<(block * 64 + 64)]))
            }
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(byteCount)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            digest.append(UInt8(truncatingIfNeeded: word))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
        }
        return digest
    }

    /// The message word each step of the left line reads.
    private static let leftWord: [UInt8] = [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
        7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8,
        3, 10, 14, 4, 9, 15, 8, 1, 2, 7, 0, 6, 13, 11, 5, 12,
        1, 9, 11, 10, 0, 8, 12, 4, 13, 3, 7, 15, 14, 5, 6, 2,
        4, 0, 5, 9, 7, 12, 2, 10, 14, 1, 3, 8, 11, 6, 15, 13,
    ]

    /// The message word each step of the right line reads.
    private static let rightWord: [UInt8] = [
        5, 14, 7, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12,
        6, 11, 3, 7, 0, 13, 5, 10, 14, 15, 8, 12, 4, 9, 1, 2,
        15, 5, 1, 3, 7, 14, 6, 9, 11, 8, 12, 2, 10, 0, 4, 13,
        8, 6, 4, 1, 3, 11, 15, 0, 5, 12, 2, 13, 9, 7, 10, 14,
        12, 15, 10, 4, 1, 5, 8, 7, 6, 2, 13, 14, 0, 3, 9, 11,
    ]

    /// The left rotation of each step of the left line.
    private static let leftShift: [UInt8] = [
        11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8,
        7, 6, 8, 13, 11, 9, 7, 15, 7, 12, 15, 9, 11, 7, 13, 12,
        11, 13, 6, 7, 14, 9, 13, 15, 14, 8, 13, 6, 5, 12, 7, 5,
        11, 12, 14, 15, 14, 15, 9, 8, 9, 14, 5, 6, 8, 6, 5, 12,
        9, 15, 5, 11, 6, 8, 13, 12, 5, 12, 13, 14, 11, 8, 5, 6,
    ]

    /// The left rotation of each step of the right line.
    private static let rightShift: [UInt8] = [
        8, 9, 9, 11, 13, 15, 15, 5, 7, 7, 8, 11, 14, 14, 12, 6,
        9, 13, 15, 7, 12, 8, 9, 11, 7, 7, 12, 7, 6, 15, 13, 11,
        9, 7, 15, 11, 8, 6, 6, 14, 12, 13, 5, 14, 13, 13, 7, 5,
        15, 5, 8, 11, 14, 14, 6, 14, 6, 9, 12, 9, 12, 5, 15, 8,
        8, 5, 12, 9, 12, 5, 14, 6, 8, 13, 6, 5, 15, 13, 11, 11,
    ]

    /// The additive constant of each round, left line.
    private static let leftConstant: [UInt32] = [0x0000_0000, 0x5a82_7999, 0x6ed9_eba1, 0x8f1b_bcdc, 0xa953_fd4e]

    /// The additive constant of each round, right line.
    private static let rightConstant: [UInt32] = [0x50a2_8be6, 0x5c4d_d124, 0x6d70_3ef3, 0x7a6d_76e9, 0x0000_0000]

    /// The boolean function of round `round` (0...4).
    @inline(__always)
    private static func mix(_ round: Int, _ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 {
        switch round {
        case 0: x ^ y ^ z
        case 1: (x & y) | (~x & z)
        case 2: (x | ~y) ^ z
        case 3: (x & z) | (y & ~z)
        default: x ^ (y | ~z)
        }
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt8) -> UInt32 {
        (value << UInt32(count)) | (value >> UInt32(32 - count))
    }

    /// Runs the compression function on one 64-byte block.
    private static func compress(
        _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32),
        _ block: UnsafeBufferPointer<UInt8>
    ) {
        var words = [UInt32](repeating: 0, count: 16)
        for i in 0..<16 {
            words[i] =
                UInt32(block[4 * i]) | UInt32(block[4 * i + 1]) << 8 | UInt32(block[4 * i + 2]) << 16
                | UInt32(block[4 * i + 3]) << 24
        }
        var (al, bl, cl, dl, el) = state
        var (ar, br, cr, dr, er) = state
        for step in 0..<80 {
            let round = step / 16
            var t = al &+ mix(round, bl, cl, dl) &+ words[Int(leftWord[step])] &+ leftConstant[round]
            t = rotate(t, leftShift[step]) &+ el
            (al, el, dl, cl, bl) = (el, dl, rotate(cl, 10), bl, t)
            t = ar &+ mix(4 - round, br, cr, dr) &+ words[Int(rightWord[step])] &+ rightConstant[round]
            t = rotate(t, rightShift[step]) &+ er
            (ar, er, dr, cr, br) = (er, dr, rotate(cr, 10), br, t)
        }
        let combined = state.1 &+ cl &+ dr
        state.1 = state.2 &+ dl &+ er
        state.2 = state.3 &+ el &+ ar
        state.3 = state.4 &+ al &+ br
        state.4 = state.0 &+ bl &+ cr
        state.0 = combined
    }
}

import WatcherBitcoin

/// Bitcoin Core's `ScriptToAsmStr` for the scripts the simnet writes: pushes as hex (up to 4 bytes as a script
/// number, as Core prints them), small integers as numbers, and the opcodes of standard output scripts by name.
enum CoreScript {
    private static let names: [UInt8: String] = [
        0x6a: "OP_RETURN", 0x76: "OP_DUP", 0x87: "OP_EQUAL", 0x88: "OP_EQUALVERIFY", 0xa9: "OP_HASH160",
        0xac: "OP_CHECKSIG", 0xae: "OP_CHECKMULTISIG",
    ]

    static func asm(_ script: [UInt8]) -> String {
        var parts: [String] = []
        var index = 0
        while index < script.count {
            let opcode = script[index]
            index += 1
            var length: Int?
            switch opcode {
            case 0x01...0x4b: length = Int(opcode)
            case 0x4c where index < script.count:
                length = Int(script[index])
                index += 1
            case 0x4d where index + 1 < script.count:
                length = Int(script[index]) | Int(script[index + 1]) << 8
                index += 2
            default: break
            }
            if let length {
                guard index + length <= script.count else {
                    parts.append("[error]")
                    break
                }
                let data = Array(script[index..<index + length])
                index += length
                parts.append(data.count <= 4 ? number(data) : Hex.encode(data))
            } else if opcode == 0x00 {
                parts.append("0")
            } else if opcode == 0x4f {
                parts.append("-1")
            } else if (0x51...0x60).contains(opcode) {
                parts.append(String(opcode - 0x50))
            } else {
                parts.append(names[opcode] ?? "OP_UNKNOWN")
            }
        }
        return parts.joined(separator: " ")
    }

    /// A minimal script number (little-endian, sign bit in the last byte), as Core prints short pushes.
    private static func number(_ data: [UInt8]) -> String {
        guard let last = data.last else { return "0" }
        var value: Int64 = 0
        for (shift, byte) in data.enumerated() { value |= Int64(byte) << (8 * Int64(shift)) }
        if last & 0x80 != 0 {
            value &= ~(Int64(0x80) << (8 * Int64(data.count - 1)))
            value = -value
        }
        return String(value)
    }
}

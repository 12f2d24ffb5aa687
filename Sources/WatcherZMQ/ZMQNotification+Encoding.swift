extension ZMQNotification {
    /// The topic and body Bitcoin Core publishes for it (what ``init(_:)`` reads back); `nil` for ``other(topic:)``
    /// or a hash that is not 64 hex digits.
    public var topicAndBody: (topic: String, body: [UInt8])? {
        switch self {
        case .hashBlock(let hash):
            return Self.bytes(hash).map { ("hashblock", $0) }
        case .blockConnected(let hash):
            return Self.bytes(hash).map { ("sequence", $0 + [UInt8(ascii: "C")]) }
        case .blockDisconnected(let hash):
            return Self.bytes(hash).map { ("sequence", $0 + [UInt8(ascii: "D")]) }
        case .mempoolAdded(let txid, let sequence):
            return Self.bytes(txid).map { ("sequence", $0 + [UInt8(ascii: "A")] + Self.littleEndian(sequence)) }
        case .mempoolRemoved(let txid, let sequence):
            return Self.bytes(txid).map { ("sequence", $0 + [UInt8(ascii: "R")] + Self.littleEndian(sequence)) }
        case .other:
            return nil
        }
    }

    private static func littleEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// 32 bytes from 64 hex digits, in the order written (RPC order, as Core sends them).
    private static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}

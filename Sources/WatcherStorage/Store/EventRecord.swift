/// The value layout of the `events` table: a 2-byte big-endian id length, the id, then the envelope.
enum EventRecord {
    static func join(id: String, body: [UInt8]) -> [UInt8] {
        let idBytes = Array(id.utf8)
        return UInt16(clamping: idBytes.count).bigEndianBytes + idBytes + body
    }

    static func split(_ value: UnsafeRawBufferPointer) -> (id: String, body: [UInt8]) {
        guard value.count >= 2, let length = UInt16(bigEndianBytes: value[0..<2]), value.count >= 2 + Int(length)
        else { return ("", Array(value)) }
        let id = String(decoding: value[2..<(2 + Int(length))], as: UTF8.self)
        return (id, Array(value[(2 + Int(length))...]))
    }
}

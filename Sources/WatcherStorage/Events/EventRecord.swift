/// The value layout of the `events` table: a 2-byte big-endian id length and the id, a 1-byte type length and
/// the type, then the envelope.
enum EventRecord {
    static func join(id: String, type: String, body: [UInt8]) -> [UInt8] {
        let idBytes = Array(id.utf8)
        let typeBytes = Array(type.utf8.prefix(255))
        return UInt16(clamping: idBytes.count).bigEndianBytes + idBytes + [UInt8(typeBytes.count)] + typeBytes + body
    }

    static func split(_ value: UnsafeRawBufferPointer) -> (id: String, type: String, body: [UInt8]) {
        guard value.count >= 3, let idLength = UInt16(bigEndianBytes: value[0..<2]).map(Int.init),
            value.count >= 3 + idLength
        else { return ("", "", Array(value)) }
        let id = String(decoding: value[2..<(2 + idLength)], as: UTF8.self)
        let typeLength = Int(value[2 + idLength])
        let typeStart = 3 + idLength
        guard value.count >= typeStart + typeLength else { return (id, "", []) }
        let type = String(decoding: value[typeStart..<(typeStart + typeLength)], as: UTF8.self)
        return (id, type, Array(value[(typeStart + typeLength)...]))
    }
}

import Foundation
import WatcherCore

/// The event log's storage: the `events` table (sequence number → id, type, envelope), the `eventIDs` index that
/// keeps each id once, and the next sequence number in `meta`. ``EventLog`` is the log as a whole.
extension StoreTransaction {
    /// The log position of event `id`, if it was ever appended and not trimmed.
    public func eventSeq(id: String) throws -> UInt64? {
        try txn.get(tables.eventIDs, Keys.text(id)).flatMap { UInt64(bigEndianBytes: $0) }
    }

    /// Log entries from `seq` on, oldest first.
    public func events(from seq: UInt64 = 0, limit: Int = .max) throws -> [LoggedEvent] {
        var result: [LoggedEvent] = []
        guard limit > 0 else { return result }
        try txn.scan(tables.events, from: seq.bigEndianBytes) { key, value in
            guard let seq = UInt64(bigEndianBytes: key) else { return true }
            let (id, type, body) = EventRecord.split(value)
            result.append(LoggedEvent(seq: seq, id: id, type: type, body: body))
            return result.count < limit
        }
        return result
    }

    /// The highest sequence number ever assigned (0 when none).
    public func lastEventSeq() throws -> UInt64 {
        try txn.get(tables.meta, Keys.nextEventSeq).flatMap { UInt64(bigEndianBytes: $0) }.map { $0 - 1 } ?? 0
    }

    /// The oldest sequence number still in the log.
    public func firstEventSeq() throws -> UInt64? {
        try txn.entries(tables.events, limit: 1).first.flatMap { UInt64(bigEndianBytes: $0.key) }
    }
}

extension StoreTransaction where Txn == WriteTransaction {
    /// Appends an event unless an event with the same id was appended before.
    /// - Returns: the new sequence number, or `nil` for a duplicate id.
    public func appendEvent(id: String, type: String, body: [UInt8]) throws -> UInt64? {
        guard try eventSeq(id: id) == nil else { return nil }
        let seq = try lastEventSeq() + 1
        try txn.put(tables.events, integerKey: seq, EventRecord.join(id: id, type: type, body: body), append: true)
        try txn.put(tables.eventIDs, Keys.text(id), seq.bigEndianBytes)
        try txn.put(tables.meta, Keys.nextEventSeq, (seq + 1).bigEndianBytes)
        return seq
    }

    /// Deletes log entries below `seq` with their id index entries. Callers pass the slowest sink's cursor + 1,
    /// or the first sequence young enough to keep.
    /// - Returns: how many entries were removed.
    @discardableResult
    public func trimEvents(before seq: UInt64) throws -> Int {
        var doomed: [(key: [UInt8], id: String)] = []
        try txn.scan(tables.events) { key, value in
            guard let current = UInt64(bigEndianBytes: key), current < seq else {
                return false
            }
            doomed.append((Array(key), EventRecord.split(value).id))
            return true
        }
        for entry in doomed {
            try txn.delete(tables.events, entry.key)
            try txn.delete(tables.eventIDs, Keys.text(entry.id))
        }
        return doomed.count
    }
}

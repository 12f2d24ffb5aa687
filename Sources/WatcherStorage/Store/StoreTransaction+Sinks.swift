import Foundation
import WatcherCore

/// A point of the append-time index: by `time` the log had reached `seq`, so every event at or below `seq` was
/// appended at or before `time`. The delivery service records one per trim pass; ages derived from it are never
/// overestimated.
public struct AppendMark: Sendable, Hashable {
    /// The highest sequence number appended by `time`.
    public var seq: UInt64
    /// The wall-clock time of the observation.
    public var time: Date

    /// Creates a mark.
    public init(seq: UInt64, time: Date) {
        self.seq = seq
        self.time = time
    }
}

/// Delivery bookkeeping beside the cursors, in the `meta` table: `sink_disabled/<sink id>` holds a JSON
/// ``SinkDisabledRecord``; `sink_retry/<sink id>` a JSON ``SinkRetryRecord``; `event_time/<seq:u64>` holds the append-time index as big-endian milliseconds since 1970.
extension StoreTransaction {
    static var disabledPrefix: [UInt8] { Keys.text("sink_disabled", "") }
    static var markPrefix: [UInt8] { Keys.text("event_time", "") }
    static var retryPrefix: [UInt8] { Keys.text("sink_retry", "") }

    static func markKey(_ seq: UInt64) -> [UInt8] { markPrefix + seq.bigEndianBytes }

    static func mark(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> AppendMark? {
        guard key.count == markPrefix.count + 8,
            let seq = UInt64(bigEndianBytes: key[markPrefix.count...]),
            let millis = UInt64(bigEndianBytes: value)
        else { return nil }
        return AppendMark(seq: seq, time: Date(timeIntervalSince1970: Double(millis) / 1000))
    }

    /// The disabled record of `sink`, if its destination disabled it.
    public func sinkDisabled(sink: String) throws -> SinkDisabledRecord? {
        try value(SinkDisabledRecord.self, tables.meta, Self.disabledPrefix + Array(sink.utf8))
    }

    /// The event `sink` is retrying, if a delivery of it failed and it is not yet delivered or dead-lettered.
    public func sinkRetry(sink: String) throws -> SinkRetryRecord? {
        try value(SinkRetryRecord.self, tables.meta, Self.retryPrefix + Array(sink.utf8))
    }

    /// Every disabled sink, by id.
    public func disabledSinks() throws -> [SinkDisabledRecord] {
        try values(SinkDisabledRecord.self, tables.meta, prefix: Self.disabledPrefix, limit: .max)
    }

    /// The first append mark at or above `seq`: its time bounds the append time of event `seq` from above.
    /// `nil` when the event was appended after the newest mark.
    public func appendMark(covering seq: UInt64) throws -> AppendMark? {
        var found: AppendMark?
        try txn.scan(tables.meta, from: Self.markKey(seq), prefix: Self.markPrefix) { key, value in
            found = Self.mark(key: key, value: value)
            return false
        }
        return found
    }

    /// Every append mark, oldest first.
    public func appendMarks() throws -> [AppendMark] {
        var marks: [AppendMark] = []
        try txn.scan(tables.meta, prefix: Self.markPrefix) { key, value in
            if let mark = Self.mark(key: key, value: value) { marks.append(mark) }
            return true
        }
        return marks
    }
}

extension StoreTransaction where Txn == WriteTransaction {
    /// Persists that `record.sink` is disabled.
    public func setSinkDisabled(_ record: SinkDisabledRecord) throws {
        try put(tables.meta, Self.disabledPrefix + Array(record.sink.utf8), record)
    }

    /// Re-enables a sink.
    /// - Returns: `false` when it was not disabled.
    @discardableResult
    public func removeSinkDisabled(sink: String) throws -> Bool {
        try txn.delete(tables.meta, Self.disabledPrefix + Array(sink.utf8))
    }

    /// Persists the retry state of `record.sink`.
    public func setSinkRetry(_ record: SinkRetryRecord) throws {
        try put(tables.meta, Self.retryPrefix + Array(record.sink.utf8), record)
    }

    /// Forgets the retry state of `sink`.
    public func removeSinkRetry(sink: String) throws {
        _ = try txn.delete(tables.meta, Self.retryPrefix + Array(sink.utf8))
    }

    /// Records that the log had reached `mark.seq` by `mark.time`.
    public func putAppendMark(_ mark: AppendMark) throws {
        let millis = UInt64(max(0, (mark.time.timeIntervalSince1970 * 1000).rounded()))
        try txn.put(tables.meta, Self.markKey(mark.seq), millis.bigEndianBytes)
    }

    /// Deletes the marks below `seq` (they only describe trimmed events).
    /// - Returns: how many were removed.
    @discardableResult
    public func removeAppendMarks(before seq: UInt64) throws -> Int {
        try txn.deleteAll(tables.meta, prefix: Self.markPrefix, upTo: Self.markKey(seq))
    }
}

import Crypto
import Foundation
import WatcherCore
import WatcherJSON

/// A new event, ready to append: id, type and the CloudEvents 1.0 JSON envelope.
public struct NewEvent: LoggableEvent, Hashable {
    /// `evt_` + 32 hex digits of SHA-256 over the fact's identifying fields.
    public var id: String
    /// The type, e.g. `address.tx.confirmed`.
    public var type: String
    /// The serialized envelope.
    public var body: [UInt8]
    /// The fields that identify the fact (what the id is derived from, without the type).
    public var fact: [String] = []
}

/// Builds event envelopes. The id is derived from the fact an event reports (its type plus identifying
/// fields), so the same fact observed again — after a retry, a restart, or through another provider — gets the
/// same id, and the log refuses it.
public struct EventBuilder: Sendable {
    /// Clock for the envelope `time`.
    public var now: @Sendable () -> Date

    /// Creates a builder.
    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    /// The id of a fact.
    public static func id(type: String, fact: [String]) -> String {
        let digest = SHA256.hash(data: Array(([type] + fact).joined(separator: "|").utf8))
        return "evt_" + hex(digest.prefix(16))
    }

    /// Lower-case hex of `bytes` (a table, not `String(format:)`, which costs a formatter call per byte).
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Builds one event.
    /// - Parameters:
    ///   - type: the event type.
    ///   - fact: the identifying fields.
    ///   - source: the watch id (`source` becomes `watcher/<id>`).
    ///   - subject: what it is about (an address, a block hash, a txid, a currency).
    ///   - data: the payload.
    public func make(type: String, fact: [String], source: String, subject: String, data: [JSONValue.Member])
        -> NewEvent
    {
        let id = Self.id(type: type, fact: fact)
        let envelope = JSONValue.object([
            .init("specversion", .string("1.0")),
            .init("id", .string(id)),
            .init("source", .string("watcher/\(source)")),
            .init("type", .string(type)),
            .init("subject", .string(subject)),
            .init("time", .string(Self.timestamp(now()))),
            .init("datacontenttype", .string("application/json")),
            .init("data", .object(data)),
        ])
        return NewEvent(id: id, type: type, body: Array(envelope.serialized().utf8), fact: fact)
    }

    /// ISO 8601 UTC with milliseconds.
    public static func timestamp(_ date: Date) -> String {
        ISO8601Time.stringWithMilliseconds(date)
    }
}

extension JSONValue {
    /// A satoshi amount: the integer.
    static func sats(_ value: Int64) -> JSONValue { .number("\(value)") }

    /// A nullable string.
    static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
}

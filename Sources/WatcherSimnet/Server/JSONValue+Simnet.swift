import WatcherCore
import WatcherJSON

// The simnet renders its bodies with WatcherCore's `JSONValue` (integers with its `integer(_:)`): object keys keep
// the order given and numbers their exact text, and the compact serialization is byte-for-byte deterministic.
extension JSONValue {
    /// A satoshi amount as Blockbook writes it: a JSON string of the integer.
    static func satoshiString(_ value: Int64) -> JSONValue {
        .string(String(value))
    }

    /// The compact serialization as UTF-8 bytes.
    var bytes: [UInt8] { Array(serialized().utf8) }
}

/// Builds a JSON object member by member, skipping optional members that are absent.
struct JSONObjectBuilder: Sendable {
    private(set) var members: [JSONValue.Member] = []

    init() {}

    /// Appends `key: value`.
    mutating func add(_ key: String, _ value: JSONValue) {
        members.append(JSONValue.Member(key, value))
    }

    /// Appends `key: value` when `value` is not `nil`.
    mutating func add(_ key: String, ifPresent value: JSONValue?) {
        if let value { add(key, value) }
    }

    /// The finished object.
    var value: JSONValue { .object(members) }
}

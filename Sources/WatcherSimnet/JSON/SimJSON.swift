/// A JSON document with ordered object keys, serialized without Foundation so that every body the
/// simnet sends is byte-for-byte deterministic and numbers keep their exact textual form.
enum SimJSON: Sendable, Hashable {
    /// An object; keys keep the order given.
    case object([Member])
    /// An array.
    case array([SimJSON])
    /// A string.
    case string(String)
    /// An integer number.
    case int(Int64)
    /// A number written exactly as given (e.g. `"42970.9319"` or `"1.0e8"`); must be a valid JSON number.
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// One key/value pair of an object.
    struct Member: Sendable, Hashable {
        /// The key.
        let key: String
        /// The value.
        let value: SimJSON

        /// Creates a member.
        init(_ key: String, _ value: SimJSON) {
            self.key = key
            self.value = value
        }
    }

    /// An integer value from any integer type.
    static func integer(_ value: some BinaryInteger) -> SimJSON {
        .int(Int64(value))
    }

    /// A satoshi amount as Blockbook writes it: a JSON string of the integer.
    static func satoshiString(_ value: Int64) -> SimJSON {
        .string(String(value))
    }

    /// The compact serialization.
    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// The compact serialization as UTF-8 bytes.
    var bytes: [UInt8] { Array(text.utf8) }

    private func write(to out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .string(let value): Self.writeString(value, to: &out)
        case .int(let value): out += String(value)
        case .number(let literal): out += literal
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        }
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                let hex = String(s.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// Builds a JSON object member by member, skipping optional members that are absent.
struct SimJSONObject: Sendable {
    private(set) var members: [SimJSON.Member] = []

    init() {}

    /// Appends `key: value`.
    mutating func add(_ key: String, _ value: SimJSON) {
        members.append(SimJSON.Member(key, value))
    }

    /// Appends `key: value` when `value` is not `nil`.
    mutating func add(_ key: String, ifPresent value: SimJSON?) {
        if let value { add(key, value) }
    }

    /// The finished object.
    var value: SimJSON { .object(members) }
}

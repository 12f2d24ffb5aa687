/// A parsed JSON document that keeps what `Codable` loses: key order, duplicate keys and the exact text of
/// numbers (so prices and satoshi amounts convert exactly).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, as written.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order; duplicates are kept so that config checks can report them.
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: JSONValue

        /// Creates a member.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the first member named `key`, when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index`, when this is an array and the index is in range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// The JSON type in words, for messages: `a string`, `a number`, `an object`...
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The members, when this is an object.
    public var members: [Member]? {
        if case .object(let m) = self { return m }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// Parses a JSON text.
    /// - Throws: ``JSONSyntaxError`` with the line and column of the problem.
    public static func parse(_ text: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text))
        return try parser.parseDocument()
    }

    /// Parses a JSON string.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// A JSON text that could not be parsed.
public struct JSONSyntaxError: Error, CustomStringConvertible, Equatable, Sendable {
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int
    /// What was wrong.
    public var message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}

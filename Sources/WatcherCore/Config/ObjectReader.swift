import WatcherJSON

/// Reads one JSON object of the config, recording every problem in a ``ConfigContext`` instead of stopping at
/// the first, and recording each option's schema and resolved value as it goes.
///
/// Plugins read their options through it:
/// ```swift
/// init(from reader: ObjectReader) {
///     url = reader.url("url", doc: "Base URL of the instance.")
///     timeout = reader.duration("timeout", default: .seconds(10), doc: "Whole-request time budget.")
/// }
/// ```
/// Read every key unconditionally (then check combinations), so the recorded schema is complete.
/// Call ``finish()`` at the end to reject unknown keys.
public final class ObjectReader {
    /// Where this object sits.
    public let path: ConfigPath
    /// The shared problem list.
    public let context: ConfigContext
    package let members: [JSONValue.Member]
    /// Whether the value was an object at all.
    public let isPresent: Bool
    /// Options as read, in order.
    public private(set) var schema: [OptionSchema] = []
    /// The object with defaults filled in and secrets masked, for `watcher check`.
    public private(set) var resolved: [JSONValue.Member] = []

    /// Creates a reader; records an error when `value` is present but not an object.
    public init(_ value: JSONValue?, at path: ConfigPath, context: ConfigContext) {
        self.path = path
        self.context = context
        switch value {
        case .object(let members):
            self.members = members
            isPresent = true
            var seen: Set<String> = []
            for member in members where !seen.insert(member.key).inserted {
                context.error(path.key(member.key), "duplicate key \"\(member.key)\"")
            }
        case nil, .null?:
            members = []
            isPresent = false
        case let other?:
            members = []
            isPresent = false
            context.error(path, "expected an object, got \(other.typeDescription)")
        }
    }

    /// The resolved object, for display.
    public var resolvedJSON: JSONValue { .object(resolved) }

    /// The raw value of `key`, recording the key as known.
    public func raw(_ key: String, type: String, default: JSONValue? = nil, required: Bool = false, doc: String)
        -> JSONValue?
    {
        if !schema.contains(where: { $0.key == key }) {
            schema.append(
                OptionSchema(key: key, type: type, defaultValue: `default`, required: required, description: doc)
            )
        }
        let value = members.first { $0.key == key }?.value
        if case .null? = value { return nil }
        if value == nil, required {
            context.error(path.key(key), "missing required key \"\(key)\" (\(type): \(doc))")
        }
        return value
    }

    /// Records the value shown by `watcher check` for `key`.
    public func show(_ key: String, _ value: JSONValue?) {
        guard let value else { return }
        resolved.removeAll { $0.key == key }
        resolved.append(.init(key, value))
    }

    /// Removes `key` from what `watcher check` shows (a field that does not apply, e.g. another watch type's).
    package func hide(_ key: String) {
        resolved.removeAll { $0.key == key }
    }

    func typeError(_ key: String, expected: String, got value: JSONValue) {
        let shown: String
        switch value {
        case .string(let s): shown = "\(value.typeDescription) \(JSONValue.quoted(context.redact(s)))"
        case .number(let n): shown = "\(value.typeDescription) \(n)"
        default: shown = value.typeDescription
        }
        context.error(path.key(key), "expected \(expected), got \(shown)")
    }

    /// A nested object's reader (absent objects read as empty, so defaults apply).
    public func object(_ key: String, required: Bool = false, doc: String) -> ObjectReader {
        let value = raw(key, type: "object", required: required, doc: doc)
        return ObjectReader(value, at: path.key(key), context: context)
    }

    /// The elements of an array option, with their paths.
    public func array(_ key: String, required: Bool = false, doc: String) -> [(path: ConfigPath, value: JSONValue)] {
        guard let value = raw(key, type: "array", required: required, doc: doc) else { return [] }
        guard case .array(let items) = value else {
            typeError(key, expected: "an array", got: value)
            return []
        }
        return items.enumerated().map { (path.key(key).index($0.offset), $0.element) }
    }

    /// The string at `key` as written, `${NAME}` references unresolved: what logs, errors and stored records may
    /// show of a value that embeds a secret (a URL with a token in its query).
    public func written(_ key: String) -> String? {
        guard case .string(let text)? = members.first(where: { $0.key == key })?.value else { return nil }
        return text
    }

    /// Whether the object has `key` at all (an explicit empty array differs from an absent one).
    public func has(_ key: String) -> Bool {
        members.contains { $0.key == key }
    }

    /// Rejects keys no option read, suggesting the closest known key.
    public func finish() {
        let known = schema.map(\.key)
        for member in members where !known.contains(member.key) {
            var message = "unknown key \"\(member.key)\""
            if let suggestion = Spelling.suggestion(for: member.key, among: known) {
                message += "; did you mean \"\(suggestion)\"?"
            } else if !known.isEmpty {
                message += "; known keys: \(known.joined(separator: ", "))"
            }
            context.error(path.key(member.key), message)
        }
    }
}

/// What one option is, as documented in `Plugins.json`: recorded by ``ObjectReader`` as a plugin reads it, so
/// the catalog can be checked against what the code really decodes.
public struct OptionSchema: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The type in words: `string`, `url`, `integer`, `boolean`, `duration`, `secret`, `string[]`, `object`...
    public var type: String
    /// The default as JSON, or `nil` when the option is required or has no default.
    public var defaultValue: JSONValue?
    /// Whether the option must be given.
    public var required: Bool
    /// One sentence for users.
    public var description: String

    /// Creates a schema entry.
    public init(key: String, type: String, defaultValue: JSONValue?, required: Bool, description: String) {
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.required = required
        self.description = description
    }
}

/// Suggests the closest known key for a misspelled one.
enum Spelling {
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The closest candidate within a small edit distance, if any.
    static func suggestion(for key: String, among candidates: [String]) -> String? {
        let limit = max(2, key.count / 3)
        return candidates.map { ($0, distance(key, $0)) }.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }
}

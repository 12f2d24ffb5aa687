import WatcherJSON

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

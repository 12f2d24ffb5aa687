import HTTPTypes
import WatcherCore

extension ObjectReader {
    /// Extra HTTP header fields: an object of name → value strings, values may hold `${NAME}` secrets
    /// (``stringMap(_:doc:)``). A name that is not an HTTP token, or a value with a line break or another control
    /// character, is a config error at its path.
    public func headerFields(_ key: String, doc: String) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in stringMap(key, doc: doc) {
            guard let fieldName = HTTPField.Name(name) else {
                context.error(path.key(key).key(name), "not a valid header name (letters, digits and !#$%&'*+-.^_`|~)")
                continue
            }
            guard HTTPField.isValidValue(value) else {
                context.error(path.key(key).key(name), "the value holds a line break or another control character")
                continue
            }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return fields
    }
}

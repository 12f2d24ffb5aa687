import WatcherCore
import WatcherJSON

// Fixture reading: the project's JSON keeps numbers as their text, so amounts are never read through `Double`.
extension JSONValue {
    /// The number's text, as written.
    var numberText: String? { if case .number(let text) = self { text } else { nil } }
    /// The number as an integer, parsed from its text.
    var integer: Int64? { numberText.flatMap { Int64($0) } }
}

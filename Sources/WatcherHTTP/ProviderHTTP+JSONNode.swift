import Foundation
import WatcherCore
import WatcherJSON

extension ProviderHTTP {
    /// A value inside a provider's JSON answer, with its path, for decoding that never crashes: every
    /// accessor either returns the exact value or throws ``ProviderError/invalidResponse(provider:detail:)``
    /// naming the path, e.g. `expected an integer at txs[3].blockHeight, got a string`.
    ///
    /// Numbers keep their text, so satoshi amounts convert to `Int64` and prices to `Decimal` exactly,
    /// never through `Double`.
    public struct JSONNode: Sendable {
        /// The value.
        public let value: JSONValue
        /// Where it sits; spelled out only when a message needs it.
        private let location: Location
        /// The provider id errors name.
        public let provider: String

        /// Wraps a value.
        public init(_ value: JSONValue, path: String, provider: String) {
            self.init(value, location: .text(path), provider: provider)
        }

        private init(_ value: JSONValue, location: Location, provider: String) {
            self.value = value
            self.location = location
            self.provider = provider
        }

        /// Where it sits, e.g. `txs[3].vin[0].value`; empty for the top level.
        public var path: String { location.text }

        /// The member `key`, or `nil` when it is absent or `null`.
        public subscript(key: String) -> JSONNode? {
            guard let member = value[key], member != .null else { return nil }
            return JSONNode(member, location: .member(location, key), provider: provider)
        }

        /// The member `key`.
        /// - Throws: when it is absent or `null` (or this is not an object).
        public func required(_ key: String) throws -> JSONNode {
            guard case .object = value else { throw mismatch("an object") }
            guard let member = self[key] else { throw failure("missing \"\(key)\" at \(place)") }
            return member
        }

        /// An ``ProviderError/invalidResponse(provider:detail:)`` about this value.
        public func failure(_ detail: String) -> ProviderError {
            .invalidResponse(provider: provider, detail: detail)
        }

        /// The path in words: `txs[3].value`, or `the top level`.
        public var place: String { path.isEmpty ? "the top level" : path }

        func mismatch(_ expected: String) -> ProviderError {
            failure("expected \(expected) at \(place), got \(value.typeDescription)")
        }

        /// Whether this is `null`.
        public var isNull: Bool { value == .null }

        /// The string.
        public func string() throws -> String {
            guard case .string(let text) = value else { throw mismatch("a string") }
            return text
        }

        /// The boolean.
        public func bool() throws -> Bool {
            guard case .bool(let flag) = value else { throw mismatch("a boolean") }
            return flag
        }

        /// The elements.
        public func array() throws -> [JSONNode] {
            guard case .array(let items) = value else { throw mismatch("an array") }
            return items.enumerated().map {
                JSONNode($0.element, location: .element(location, $0.offset), provider: provider)
            }
        }

        /// The members in document order.
        public func members() throws -> [(key: String, node: JSONNode)] {
            guard case .object(let members) = value else { throw mismatch("an object") }
            return members.map { ($0.key, JSONNode($0.value, location: .member(location, $0.key), provider: provider)) }
        }

        /// An integer written as a JSON number or a string of digits (Blockbook writes amounts as strings).
        public func int64() throws -> Int64 {
            let text: String
            switch value {
            case .number(let number): text = number
            case .string(let string): text = string
            default: throw mismatch("an integer")
            }
            guard let number = Int64(text) else {
                throw failure("expected an integer at \(place), got \(JSONValue.quoted(text))")
            }
            return number
        }

        /// An `Int` (heights, counts).
        public func int() throws -> Int {
            let number = try int64()
            guard let result = Int(exactly: number) else { throw failure("integer out of range at \(place)") }
            return result
        }

        /// An exact decimal from a JSON number's text or a numeric string (`"48691.23"`), never via `Double`.
        public func decimal() throws -> Decimal {
            let text: String
            switch value {
            case .number(let number): text = number
            case .string(let string): text = string.trimmingCharacters(in: .whitespaces)
            default: throw mismatch("a number")
            }
            guard let number = Self.exactDecimal(text) else {
                throw failure("expected a number at \(place), got \(JSONValue.quoted(text))")
            }
            return number
        }

        /// A time written as unix seconds (number or digit string; values above 10^11 are read as
        /// milliseconds) or as an ISO 8601 / RFC 3339 string.
        public func date() throws -> Date {
            if case .string(let text) = value, let date = Self.iso8601(text) { return date }
            guard let seconds = try? decimal() else {
                throw failure("expected a unix time or an ISO 8601 time at \(place), got \(value.typeDescription)")
            }
            let value = NSDecimalNumber(decimal: seconds).doubleValue
            return Date(timeIntervalSince1970: value > 1e11 ? value / 1000 : value)
        }

        /// Parses strict decimal text (`-12.5`, `1e3`); `nil` for anything else, including partial text.
        public static func exactDecimal(_ text: String) -> Decimal? { ExactDecimal.parse(text) }

        /// Parses ISO 8601 with or without fractional seconds (any number of digits) and with `Z` or an offset.
        public static func iso8601(_ text: String) -> Date? {
            var trimmed = text.trimmingCharacters(in: .whitespaces)
            if let dot = trimmed.firstIndex(of: "."),
                let zone = trimmed[dot...].firstIndex(where: { "Z+-".contains($0) })
            {
                trimmed.removeSubrange(dot..<zone)  // fractions below a second do not matter for quotes and blocks
            }
            return ISO8601Time.date(trimmed)
        }

        /// A node's place in the document: its parent's place and its key or index. Subscripts only link a
        /// new place to the old; the text is built when a message asks for ``path``.
        private indirect enum Location: Sendable {
            /// A place given as text (the top level is empty).
            case text(String)
            /// The member `key` of an object.
            case member(Location, String)
            /// The element at an index of an array.
            case element(Location, Int)

            var text: String {
                switch self {
                case .text(let text): return text
                case .member(let parent, let key):
                    let path = parent.text
                    return path.isEmpty ? key : "\(path).\(key)"
                case .element(let parent, let index): return "\(parent.text)[\(index)]"
                }
            }
        }
    }
}

import Foundation
import WatcherJSON

/// Collects problems while a config is read, and resolves `${ENV}` references. Used only during loading.
public final class ConfigContext {
    /// The process environment used for `${NAME}` references.
    public let environment: [String: String]
    /// Problems so far.
    public private(set) var issues: [ConfigIssue] = []
    /// Resolved secret values, so that nothing prints them.
    public private(set) var secrets: Set<String> = []

    /// Creates a context.
    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// Records an error.
    public func error(_ path: ConfigPath, _ message: String) {
        issues.append(ConfigIssue(path: path, message: message))
    }

    /// Records a warning.
    public func warning(_ path: ConfigPath, _ message: String) {
        issues.append(ConfigIssue(path: path, message: message, severity: .warning))
    }

    /// Whether any error has been recorded.
    public var hasErrors: Bool { issues.contains { $0.severity == .error } }

    /// Whether an error was recorded at `path` or below it: a reader whose values had a bad one builds nothing.
    public func hasErrors(under path: ConfigPath) -> Bool {
        issues.contains { $0.severity == .error && $0.path.components.starts(with: path.components) }
    }

    /// Replaces each `${NAME}` in `text` with the variable's value.
    /// - Returns: the resolved text and whether it held a reference; `nil` (after recording an error) when a
    ///   variable is unset or a reference is malformed.
    func resolve(_ text: String, at path: ConfigPath) -> (value: String, isSecret: Bool)? {
        guard text.contains("${") else { return (text, false) }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                error(path, "unterminated ${...} reference")
                return nil
            }
            let name = String(rest[start.upperBound..<end])
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                error(path, "invalid environment variable name \"\(name)\" in ${...}")
                return nil
            }
            guard let value = environment[name] else {
                error(path, "environment variable \(name) is not set (referenced as ${\(name)})")
                return nil
            }
            secrets.insert(value)
            result += value
            rest = rest[rest.index(after: end)...]
        }
        return (result + rest, true)
    }

    /// The `${NAME}` references anywhere in `value` whose variable is unset.
    package func unsetReferences(in value: JSONValue) -> [String] {
        switch value {
        case .string(let text):
            var names: [String] = []
            var rest = Substring(text)
            while let start = rest.range(of: "${"), let end = rest[start.upperBound...].firstIndex(of: "}") {
                let name = String(rest[start.upperBound..<end])
                if environment[name] == nil { names.append(name) }
                rest = rest[rest.index(after: end)...]
            }
            return names
        case .array(let items): return items.flatMap(unsetReferences(in:))
        case .object(let members): return members.flatMap { unsetReferences(in: $0.value) }
        case .null, .bool, .number: return []
        }
    }

    /// `text` with every resolved secret value replaced by `***`, for logs and messages.
    public func redact(_ text: String) -> String {
        secrets.filter { !$0.isEmpty }.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }
}

/// Where a value sits in the config document, printed as `providers[1].options.url`.
public struct ConfigPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the document root.
    public var components: [Component]

    /// The document root.
    public static let root = ConfigPath(components: [])

    /// Creates a path.
    public init(components: [Component]) { self.components = components }

    /// This path followed by an object key.
    public func key(_ key: String) -> ConfigPath { ConfigPath(components: components + [.key(key)]) }

    /// This path followed by an array index.
    public func index(_ index: Int) -> ConfigPath { ConfigPath(components: components + [.index(index)]) }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text.isEmpty ? "(root)" : text
    }
}

/// One problem found in a config, with where it is.
public struct ConfigIssue: Sendable, Hashable, CustomStringConvertible {
    /// How serious it is.
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    /// Where.
    public var path: ConfigPath
    /// What is wrong and what was expected.
    public var message: String
    /// Errors stop the config from loading; warnings are printed.
    public var severity: Severity

    /// Creates an issue.
    public init(path: ConfigPath, message: String, severity: Severity = .error) {
        self.path = path
        self.message = message
        self.severity = severity
    }

    public var description: String { "\(path): \(message)" }
}

/// A config that could not be loaded, with every problem found (not only the first).
public struct ConfigError: Error, CustomStringConvertible, Sendable {
    /// The file, when loaded from one.
    public var file: String?
    /// All errors and warnings.
    public var issues: [ConfigIssue]

    /// Creates an error.
    public init(file: String?, issues: [ConfigIssue]) {
        self.file = file
        self.issues = issues
    }

    /// Only the errors.
    public var errors: [ConfigIssue] { issues.filter { $0.severity == .error } }

    public var description: String {
        let count = errors.count
        let head = "\(file ?? "config"): \(count) error\(count == 1 ? "" : "s")"
        return ([head] + errors.map { "  \($0)" }).joined(separator: "\n")
    }
}

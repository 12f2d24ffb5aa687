/// A value that holds a secret from the config (a password, a signing key, API-key headers, a URL with a token):
/// it prints, debug-prints and reflects as its type name alone, so that no `"\(value)"`, `String(reflecting:)`,
/// `dump` or reflection of a value that contains it (a service, a provider, the config) shows what it holds.
///
/// ```swift
/// struct Options: SecretBearing { var password: String }
/// "\(Options(password: "p"))"  // "Options(redacted)"
/// ```
public protocol SecretBearing: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension SecretBearing {
    /// `TypeName(redacted)`.
    public var description: String { "\(Self.self)(redacted)" }
    /// As ``description``.
    public var debugDescription: String { description }
    /// No children: reflection stops here.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

import Foundation

/// The hint for a URL that stops parsing once its `${NAME}` secrets are substituted: the value of a secret that sits
/// in a URL (a password in `postgres://user:${PG_PASSWORD}@host/db`) must be percent-encoded. It names the variables,
/// never their values.
public enum URLSecretHint {
    /// The characters a secret in a URL must percent-encode, with their encodings.
    public static let reserved: [(character: Character, encoded: String)] = [
        ("@", "%40"), (":", "%3A"), ("/", "%2F"), ("?", "%3F"), ("#", "%23"), ("%", "%25"), (" ", "%20"),
    ]

    /// The `${NAME}` references in `written`, in order.
    public static func references(in written: String) -> [String] {
        var names: [String] = []
        var rest = Substring(written)
        while let start = rest.range(of: "${"), let end = rest[start.upperBound...].firstIndex(of: "}") {
            let name = String(rest[start.upperBound..<end])
            if !name.isEmpty, !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: end)...]
        }
        return names
    }

    /// `; the value of ${PG_PASSWORD} must be percent-encoded …` for a URL as written with references; `""` without.
    public static func suffix(forWritten written: String) -> String {
        let names = references(in: written)
        guard !names.isEmpty else { return "" }
        let list = names.map { "${\($0)}" }.joined(separator: ", ")
        let table = reserved.map { $0.character == " " ? "space \($0.encoded)" : "\($0.character) \($0.encoded)" }
            .joined(separator: ", ")
        return "; the value of \(list) is part of the URL: percent-encode the characters \(table) in it"
    }
}

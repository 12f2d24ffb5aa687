import Foundation

/// Where a `postgres` sink connects: the parts of a `postgres://user:password@host:port/database` URL.
///
/// Its ``description`` never contains the password, so it is safe in logs, errors and `watcher check`.
public struct PostgresEndpoint: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The server host name or IP address.
    public var host: String
    /// The TCP port (5432 unless the URL names one).
    public var port: Int
    /// The user name.
    public var user: String
    /// The password, when the URL has one.
    public var password: String?
    /// The database name.
    public var database: String

    /// Creates an endpoint from its parts.
    public init(host: String, port: Int = 5432, user: String, password: String?, database: String) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// Parses a resolved URL (secrets already substituted). User, password and database are percent-decoded.
    /// - Throws: a message naming what is wrong; it never repeats the password.
    public init(parsing text: String) throws(PostgresURLError) {
        guard let components = URLComponents(string: text) else {
            throw PostgresURLError("expected a URL such as postgres://user:${PG_PASSWORD}@host:5432/database")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresURLError("the scheme must be postgres:// or postgresql://")
        }
        guard let host = components.host, !host.isEmpty else { throw PostgresURLError("the URL has no host") }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresURLError("the URL has no user name (postgres://user:${PG_PASSWORD}@host/database)")
        }
        let path = components.path
        let database = path.hasPrefix("/") ? String(path.dropFirst()) : path
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresURLError("the URL must end with the database name (…@host:5432/database)")
        }
        if let port = components.port, !(1...65_535).contains(port) {
            throw PostgresURLError("the port must be between 1 and 65535")
        }
        if components.query != nil || components.fragment != nil {
            throw PostgresURLError("the URL takes no ?parameters; use the sink's tls option")
        }
        self.init(
            host: host,
            port: components.port ?? 5432,
            user: user,
            password: components.password,
            database: database
        )
    }

    /// `postgres://user@host:port/database`: no password.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(shownHost):\(port)/\(database)"
    }

    /// The ``description`` alone, so that no reflection (`dump`, a value that holds this one) shows the password.
    public var customMirror: Mirror { Mirror(self, children: ["endpoint": description]) }

    /// The URL as written in the config, with a literal password replaced by `********`; a `${NAME}` reference is
    /// kept, since it shows no secret.
    public static func masked(_ written: String) -> String {
        guard let schemeEnd = written.range(of: "://") else { return written }
        let rest = written[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@"),
            let colon = rest[..<at].firstIndex(of: ":")
        else { return written }
        let password = rest[rest.index(after: colon)..<at]
        if isReference(password) { return written }
        return String(written[..<rest.index(after: colon)]) + "********" + String(written[at...])
    }

    /// Whether the password in a URL as written is a literal rather than a `${NAME}` reference.
    public static func hasLiteralPassword(_ written: String) -> Bool {
        masked(written) != written
    }

    private static func isReference(_ text: Substring) -> Bool {
        text.hasPrefix("${") && text.hasSuffix("}")
            && text.dropFirst(2).dropLast().allSatisfy {
                $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_")
            } && text.count > 3
    }
}

/// A `postgres` sink URL is invalid.
public struct PostgresURLError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, without the password.
    public var description: String

    init(_ description: String) { self.description = description }
}

import Foundation
import Synchronization
import WatcherCore

/// How the adapter authenticates to the node: the cookie file Core writes at each start (`__cookie__:<hex>`), or
/// an `rpcuser`/`rpcauth` user and its password. The `Authorization` value is built once and kept; a 401 makes the
/// cookie file be read again (once per refusal), since the node writes a new one at every restart.
final class BitcoindCredentials: Sendable, SecretBearing {
    /// Where the credentials come from.
    enum Source: Sendable {
        /// Core's cookie file.
        case cookie(path: String)
        /// A user and its password (a `${ENV}` secret).
        case password(user: String, password: String)
    }

    let source: Source
    let provider: String
    private let header = Mutex<String?>(nil)

    init(_ source: Source, provider: String) {
        self.source = source
        self.provider = provider
    }

    /// The option a refusal names: `cookieFile` (with its path) or `password` (never its value).
    var optionName: String {
        switch source {
        case .cookie(let path): "cookieFile \(path)"
        case .password(let user, _): "user \"\(user)\" and password"
        }
    }

    /// The `Authorization` value, reading the cookie file the first time.
    func authorization() throws -> String {
        if let cached = header.withLock({ $0 }) { return cached }
        return try reload()
    }

    /// Reads the cookie file again (a node restart writes a new one) and returns the new `Authorization` value.
    @discardableResult
    func reload() throws -> String {
        let value: String
        switch source {
        case .password(let user, let password):
            value = Self.basic(user, password)
        case .cookie(let path):
            let text: String
            do {
                text = try String(contentsOfFile: Self.expandingHome(path), encoding: .utf8)
            } catch {
                throw ProviderError.unavailable(
                    provider: provider,
                    status: nil,
                    detail: "cannot read cookieFile \(path) (is the node running, and may this user read its data "
                        + "directory?)"
                )
            }
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw ProviderError.unavailable(
                    provider: provider,
                    status: nil,
                    detail: "cookieFile \(path) does not hold user:password"
                )
            }
            value = Self.basic(String(line[..<colon]), String(line[line.index(after: colon)...]))
        }
        header.withLock { $0 = value }
        return value
    }

    /// `path` with a leading `~/` replaced by `$HOME` (the user the daemon runs as).
    static func expandingHome(_ path: String) -> String {
        guard path.hasPrefix("~/") else { return path }
        return (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}

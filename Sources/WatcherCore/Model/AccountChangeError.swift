/// Why following or unfollowing an address failed: `watcher accounts add/remove` and the status server's
/// `POST`/`DELETE /api/accounts` report the same reasons (the CLI as exit codes, the server as HTTP statuses).
public enum AccountChangeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not a valid address or `bitcoin:` URI (or names another network); found offline.
    case invalid(String)
    /// The providers know the address but it has no transactions; nothing was stored.
    case noTransactions(String)
    /// The providers could not answer: the whole error (for the CLI and the log) and a summary without details
    /// (for the status server, see ``ProviderError/summary``).
    case providers(String, summary: String)
    /// The address is not followed.
    case notFollowed(String)
    /// The address is followed by a config watch, which only the config can change.
    case followedByConfig(String)

    public var description: String {
        switch self {
        case .invalid(let text), .noTransactions(let text), .providers(let text, _), .notFollowed(let text),
            .followedByConfig(let text):
            text
        }
    }

    /// What a client of the status server is shown: ``description`` without provider details.
    public var publicDescription: String {
        if case .providers(_, let summary) = self { return summary }
        return description
    }
}

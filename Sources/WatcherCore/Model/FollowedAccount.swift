/// An address the watcher follows: from an `address` watch in the config, or added with `accounts add` (or the
/// web UI). `watcher accounts list` and the status server's `/api/accounts` list the same ones, in the same order.
public struct FollowedAccount: Sendable, Hashable {
    /// The address, canonical form.
    public var address: String
    /// Its label.
    public var label: String?
    /// The config watch that follows it, or `accounts` for a stored account.
    public var watch: String

    /// Creates an entry.
    public init(address: String, label: String?, watch: String) {
        self.address = address
        self.label = label
        self.watch = watch
    }

    /// The watch id of stored accounts.
    public static let accountsWatch = "accounts"
}

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

    /// The ids of the config's `address` watches on `chain` that list `address`, in file order.
    public static func configWatches(following address: String, chain: String, watches: [WatchConfig]) -> [String] {
        watches.filter { watch in
            watch.kind == .address && watch.chain == chain && watch.addresses.contains { $0.address == address }
        }.map(\.id)
    }

    /// Config watches first (in file order), then stored accounts not already in the config.
    public static func all(watches: [WatchConfig], chain: String, accounts: [Account]) -> [FollowedAccount] {
        var result: [FollowedAccount] = []
        var seen: Set<String> = []
        for watch in watches where watch.kind == .address && watch.chain == chain {
            for item in watch.addresses where seen.insert(item.address).inserted {
                result.append(FollowedAccount(address: item.address, label: item.label, watch: watch.id))
            }
        }
        for account in accounts where seen.insert(account.address).inserted {
            result.append(FollowedAccount(address: account.address, label: account.label, watch: accountsWatch))
        }
        return result
    }
}

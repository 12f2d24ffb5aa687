import WatcherCore

/// One followed address of a chain: from a config `address` watch, an account added with `watcher accounts add`,
/// or a followed wallet's window (`AddressBook` in the engine collects them).
public struct FollowedAddress: Sendable, Hashable {
    /// The address.
    public var address: String
    /// Its label.
    public var label: String?
    /// Confirmation counts to announce.
    public var thresholds: [Int]
    /// The watch it belongs to (`accounts` for CLI-followed ones).
    public var watch: String
    /// Blocks a transaction is followed past its highest threshold.
    public var reorgSafety: Int
    /// The first height announced at the first observation, when configured.
    public var from: Int?
    /// Where the address sits in a followed wallet: its events carry `data.wallet`, and its balance changes
    /// are announced for the wallet (`wallet.balance.changed`), not for the address.
    public var wallet: WalletAddressRef?
    /// The label given to the address when `watcher wallets next --label` handed it out (an invoice, a
    /// customer); events carry it as `data.wallet.label`.
    public var issuedLabel: String?

    /// Creates an entry.
    public init(
        address: String,
        label: String? = nil,
        thresholds: [Int] = [1, 3, 6],
        watch: String,
        reorgSafety: Int = 6,
        from: Int? = nil
    ) {
        self.address = address
        self.label = label
        self.thresholds = thresholds
        self.watch = watch
        self.reorgSafety = reorgSafety
        self.from = from
    }
}

import WatcherCore

// Which watches follow an address, read from the config.
extension FollowedAccount {
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

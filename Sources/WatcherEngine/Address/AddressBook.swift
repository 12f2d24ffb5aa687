import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherStorage

/// Every followed address of one chain with its label, confirmation thresholds and watch id: from config
/// `address` watches and from accounts added with `watcher accounts add`.
package struct AddressBook: Sendable {
    /// One followed address.
    package typealias Entry = FollowedAddress

    /// The watch id of CLI-followed accounts.
    package static let accountsWatch = JobPlan.accountsWatch

    /// Entries by address.
    package var entries: [String: Entry] = [:]

    /// Builds the book of `chain` from config watches and stored accounts (config wins on conflicts).
    package static func load(chain: String, watches: [WatchConfig], accounts: [Account], accountThresholds: [Int])
        -> AddressBook
    {
        var book = AddressBook()
        let chainWatches = watches.filter { $0.kind == .address && $0.chain == chain }
        book.entries.reserveCapacity(accounts.count + chainWatches.reduce(0) { $0 + $1.addresses.count })
        for account in accounts where account.chain == chain {
            book.entries[account.address] = Entry(
                address: account.address,
                label: account.label,
                thresholds: accountThresholds,
                watch: accountsWatch
            )
        }
        for watch in chainWatches {
            for item in watch.addresses {
                book.entries[item.address] = Entry(
                    address: item.address,
                    label: item.label ?? book.entries[item.address]?.label,
                    thresholds: watch.confirmations,
                    watch: watch.id,
                    reorgSafety: watch.reorgSafety,
                    from: watch.from
                )
            }
        }
        return book
    }

    /// The thresholds of `address` (empty when not followed).
    package func thresholds(_ address: String) -> [Int] { entries[address]?.thresholds ?? [] }

    /// The entries of one watch (`accounts` for CLI-followed addresses).
    package func watch(_ id: String) -> AddressBook {
        AddressBook(entries: entries.filter { $0.value.watch == id })
    }
}

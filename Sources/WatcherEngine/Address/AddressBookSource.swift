import Synchronization
import WatcherConfiguration
import WatcherCore
import WatcherRules
import WatcherStorage

/// The address book of one chain, built once from the config and merged again only when the CLI's accounts
/// change.
///
/// Every job asks for the book: each tip poll, address round, block commit and pushed transaction. Building it
/// anew each time cost a dictionary of every followed address per call (100,000 inserts and about 20 MB of
/// garbage at 100,000 addresses, several times a second with push). The config part never changes while the
/// daemon runs; the accounts are read from the store (usually a handful) and compared with the last read.
final class AddressBookSource: Sendable {
    private struct Cache {
        var accounts: [Account]
        var book: AddressBook
    }

    private let chain: String
    private let store: Store
    private let settings: Engine.Settings
    private let watches: Mutex<[WatchConfig]>
    private let cache: Mutex<Cache?> = Mutex(nil)

    init(chain: String, watches: [WatchConfig], store: Store, settings: Engine.Settings) {
        self.chain = chain
        self.store = store
        self.settings = settings
        self.watches = Mutex(watches.filter { $0.kind == .address && $0.chain == chain })
    }

    /// Replaces the config's watches (a reload); the next ``book()`` is built from them.
    func update(watches: [WatchConfig]) {
        let chain = self.chain
        self.watches.withLock { $0 = watches.filter { $0.kind == .address && $0.chain == chain } }
        cache.withLock { $0 = nil }
    }

    /// The current book: config watches plus the stored accounts (config wins on conflicts).
    /// Built under the lock, so that jobs starting together build it once, not once each.
    func book() throws -> AddressBook {
        let accounts = try store.read { [chain] in try $0.accounts(chain: chain) }
        return cache.withLock { cache in
            if let cache, cache.accounts == accounts { return cache.book }
            var book = AddressBook.load(
                chain: chain,
                watches: watches.withLock { $0 },
                accounts: accounts,
                accountThresholds: settings.accountThresholds
            )
            for (address, entry) in book.entries where entry.watch == AddressBook.accountsWatch {
                book.entries[address]?.reorgSafety = settings.accountReorgSafety
            }
            cache = Cache(accounts: accounts, book: book)
            return book
        }
    }
}

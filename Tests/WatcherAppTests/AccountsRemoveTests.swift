import Foundation
import Testing
import WatcherCore
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

/// `watcher accounts remove` on a real store: it removes only accounts added with `accounts add`, keeps the
/// engine state of an address a config watch still follows, and changes nothing when it refuses.
@Suite(.serialized)
struct AccountsRemoveTests {
    /// Followed by the config's `savings` watch.
    static let configured = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
    /// Added with `accounts add` only.
    static let added = "1BoatSLRHtKNngkdXEeobR76b53LETtpyT"
    /// Followed by nobody.
    static let stranger = "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"

    /// What the store holds for an address: a CLI account, and engine state.
    struct Held: Equatable {
        var account: Bool
        var state: Bool
    }

    /// A config following `configured`, and a store holding state for all three addresses and CLI accounts for
    /// `added` and, when `bothFollow`, `configured` too.
    static func setUp(_ dir: TemporaryDirectory, bothFollow: Bool = false) async throws -> String {
        let config = try dir.write(
            "watcher.json",
            """
            {"storage": {"path": "./data"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:9"}}],
             "watches": [{"id": "savings", "type": "address", "providers": ["bb"], "addresses": ["\(configured)"]}],
             "sinks": []}
            """
        )
        let store = try Store(path: dir.url.appendingPathComponent("data").path)
        let accounts = bothFollow ? [added, configured] : [added]
        try await store.write { txn in
            for address in [configured, added, stranger] {
                try txn.putAddressState(AddressState(chain: "btc", address: address))
            }
            for address in accounts {
                try txn.putAccount(Account(chain: "btc", address: address, label: nil, addedAt: Date()))
            }
        }
        await store.close()
        return config
    }

    static func held(_ dir: TemporaryDirectory) async throws -> [String: Held] {
        let store = try Store(path: dir.url.appendingPathComponent("data").path, options: .init(readOnly: true))
        let result = try store.read { txn in
            try Dictionary(
                uniqueKeysWithValues: [configured, added, stranger].map { address in
                    (
                        address,
                        Held(
                            account: try txn.account(chain: "btc", address: address) != nil,
                            state: try txn.addressState(chain: "btc", address: address) != nil
                        )
                    )
                }
            )
        }
        await store.close()
        return result
    }

    @Test func anAddressFollowedOnlyByTheConfigIsLeftAlone() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try await Self.setUp(dir)
        let before = try await Self.held(dir)
        let result = try await WatcherProcess.run(["accounts", "remove", "--config", config, Self.configured])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "\(Self.configured) is followed by watch \"savings\" in the config, not by `watcher accounts add`; "
                    + "nothing was changed"
            ),
            "\(result.stderr)"
        )
        #expect(try await Self.held(dir) == before)
        #expect(before[Self.configured] == Held(account: false, state: true))
    }

    @Test func aCLIAccountIsRemovedWithItsState() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try await Self.setUp(dir)
        let result = try await WatcherProcess.run(["accounts", "remove", "--config", config, Self.added])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("stopped following \(Self.added)"))
        let held = try await Self.held(dir)
        #expect(held[Self.added] == Held(account: false, state: false))
        #expect(held[Self.configured] == Held(account: false, state: true))
        #expect(held[Self.stranger] == Held(account: false, state: true))
    }

    @Test func anAccountTheConfigAlsoFollowsKeepsItsState() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try await Self.setUp(dir, bothFollow: true)
        let result = try await WatcherProcess.run(["accounts", "remove", "--config", config, Self.configured])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "removed account \(Self.configured); watch \"savings\" in the config still follows it"
            ),
            "\(result.stdout)"
        )
        let held = try await Self.held(dir)
        #expect(held[Self.configured] == Held(account: false, state: true))
        #expect(held[Self.added] == Held(account: true, state: true))
    }

    @Test func anAddressNobodyFollowsChangesNothing() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try await Self.setUp(dir)
        let before = try await Self.held(dir)
        let result = try await WatcherProcess.run(["accounts", "remove", "--config", config, Self.stranger])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(Self.stranger) is not followed"), "\(result.stderr)")
        #expect(try await Self.held(dir) == before)
    }
}

import Foundation
import Testing
import WatcherCore
import WatcherTestSupport

@testable import WatcherStorage

/// `removeAccount`: nothing changes unless a CLI account exists; its engine state goes with it unless kept.
struct AccountRemovalTests {
    static let address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"

    static func holds(_ store: Store) throws -> (account: Bool, state: Bool) {
        try store.read { txn in
            (
                try txn.account(chain: "btc", address: address) != nil,
                try txn.addressState(chain: "btc", address: address) != nil
            )
        }
    }

    @Test(arguments: [false, true])
    func withoutAnAccountNothingChanges(_ keepingState: Bool) async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let store = try Store(path: dir.storePath)
        try await store.write { try $0.putAddressState(AddressState(chain: "btc", address: Self.address)) }
        let removed = try await store.write {
            try $0.removeAccount(chain: "btc", address: Self.address, keepingState: keepingState)
        }
        #expect(!removed)
        #expect(try Self.holds(store) == (false, true))
        await store.close()
    }

    @Test(arguments: [false, true])
    func anAccountIsRemovedAndItsStateOnlyWhenNotKept(_ keepingState: Bool) async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let store = try Store(path: dir.storePath)
        try await store.write { txn in
            try txn.putAddressState(AddressState(chain: "btc", address: Self.address))
            try txn.putAccount(Account(chain: "btc", address: Self.address, label: "Savings", addedAt: Date()))
        }
        let removed = try await store.write {
            try $0.removeAccount(chain: "btc", address: Self.address, keepingState: keepingState)
        }
        #expect(removed)
        #expect(try Self.holds(store) == (false, keepingState))
        await store.close()
    }
}

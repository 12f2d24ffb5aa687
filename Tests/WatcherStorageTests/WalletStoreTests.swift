import Foundation
import Testing
import WatcherCore
import WatcherTestSupport

@testable import WatcherStorage

/// The wallet tables: state, the script index (binary values, one lookup per script), issued addresses.
struct WalletStoreTests {
    static let p2wpkh: [UInt8] = [0x00, 0x14] + Array(repeating: 0xab, count: 20)
    static let p2tr: [UInt8] = [0x51, 0x20] + Array(repeating: 0xcd, count: 32)

    @Test func theScriptIndexMapsScriptsToWalletBranchAndIndex() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let store = try Store(path: dir.storePath)
        let receive = WalletAddressRef(wallet: "shop", branch: .receive, index: 70_000)
        let change = WalletAddressRef(wallet: "shop.eu-1", branch: .change, index: 0)
        try await store.write { txn in
            try txn.putWalletScript(chain: "btc", script: Self.p2wpkh, receive)
            try txn.putWalletScript(chain: "btc", script: Self.p2tr, change)
        }
        try store.read { txn throws in
            #expect(try txn.walletScript(chain: "btc", script: Self.p2wpkh) == receive)
            #expect(try txn.walletScript(chain: "btc-testnet", script: Self.p2wpkh) == nil)
            let found = try txn.walletScripts(chain: "btc", [Self.p2tr, [0x6a], Self.p2wpkh])
            #expect(found == [0: change, 2: receive])
            #expect(try txn.walletScriptCount() == 2)
        }
        try await store.write { try $0.removeWalletScript(chain: "btc", script: Self.p2tr) }
        #expect(try store.read { try $0.walletScript(chain: "btc", script: Self.p2tr) } == nil)
        await store.close()
    }

    @Test func walletStateAndIssuedAddressesRoundTrip() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let store = try Store(path: dir.storePath)
        var state = WalletState(chain: "btc", wallet: "shop", descriptor: "wpkh(xpub…/<0;1>/*)#abcdefgh")
        state.receive = WalletState.Window(lastUsed: 39, lastIssued: 41, derivedUpTo: 61, checkedUpTo: 59)
        state.balanceSat = 2_100_000_000_000_000
        let issued = IssuedAddress(
            wallet: "shop",
            index: 41,
            address: "bc1qexample",
            label: "Order 7",
            issuedAt: Date(timeIntervalSince1970: 1_800_000_000)
        )
        var followed = AddressState(chain: "btc", address: "bc1qexample")
        followed.wallet = WalletAddressRef(wallet: "shop", branch: .receive, index: 41)
        let (state0, address) = (state, followed)
        try await store.write { txn in
            try txn.putWalletState(state0)
            try txn.putIssuedAddress(chain: "btc", issued)
            try txn.putAddressState(address)
            try txn.putAddressState(AddressState(chain: "btc", address: "bc1qother"))
        }
        try store.read { txn throws in
            #expect(try txn.walletState(chain: "btc", wallet: "shop") == state)
            #expect(try txn.walletStates(chain: "btc") == [state])
            #expect(try txn.issuedAddresses(chain: "btc", wallet: "shop") == [issued])
            #expect(try txn.addressState(chain: "btc", address: "bc1qexample")?.wallet?.index == 41)
        }
        // Forgetting the wallet removes its state, issued addresses and addresses, and nothing else.
        try await store.write { try $0.removeWallet(chain: "btc", wallet: "shop") }
        try store.read { txn throws in
            #expect(try txn.walletState(chain: "btc", wallet: "shop") == nil)
            #expect(try txn.issuedAddresses(chain: "btc", wallet: "shop").isEmpty)
            #expect(try txn.addressStates(chain: "btc").map(\.address) == ["bc1qother"])
        }
        await store.close()
    }

    /// A store written before wallets existed lacks their tables: a read-only open (a CLI read while an older
    /// daemon runs) reads them as empty instead of refusing the store; a read-write open creates them.
    @Test func aStoreWithoutWalletTablesOpensReadOnly() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        try Self.createStoreWithoutWalletTables(dir.storePath)
        let reader = try Store(path: dir.storePath, options: EnvironmentOptions(readOnly: true))
        try reader.read { txn throws in
            #expect(try txn.walletStates(chain: "btc").isEmpty)
            #expect(try txn.walletScript(chain: "btc", script: Self.p2wpkh) == nil)
        }
        await reader.close()
        let writer = try Store(path: dir.storePath)
        try await writer.write { txn in
            try txn.putWalletScript(chain: "btc", script: Self.p2wpkh, .init(wallet: "w", branch: .receive, index: 1))
        }
        await writer.close()
    }

    static func createStoreWithoutWalletTables(_ path: String) throws {
        let old = try Environment(path: path)
        _ = try old.openDatabases(Tables.names)
        old.close()
    }
}

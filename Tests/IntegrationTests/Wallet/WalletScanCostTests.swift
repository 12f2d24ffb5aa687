import Foundation
import Testing
import WatcherBitcoin
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

@testable import WatcherApp

/// Scanning costs per block, not per wallet: the same blocks and payments, followed by 1 wallet and by 100, ask
/// Blockbook for exactly the same block requests (and, with the same payments, the same address checks) once the
/// initial sync is done.
@Suite(.serialized)
struct WalletScanCostTests {
    /// Wallet n: child n of BIP84's account key, gap 2.
    static func watches(_ count: Int) -> String {
        let wallets = (0..<count).map { n in
            #"{"id": "w\#(n)", "type": "wallet", "providers": ["bb"], "every": "1s", "strategy": "scan", "gap": 2, "#
                + #""descriptor": "wpkh(\#(WalletKeysForTests.account84)/\#(n)/<0;1>/*)"}"#
        }
        return #"[{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"}, "#
            + wallets.joined(separator: ", ")
            + "]"
    }

    /// Blockbook requests by endpoint while 3 blocks with 2 payments each to wallet w0 are scanned.
    static func requests(wallets count: Int) async throws -> [String: Int] {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            // 20 blocks before the start: the recent blocks shown fill with real blocks only (a shorter chain ends
            // in a not-found probe below its first block, which could fall in the counted window).
            _ = try await simnet.mine(count: 20)
            // The scan's cost alone (`"websocket": false`): pushed payments move when an address's summary is read.
            let config = try EngineHarness.config(simnet, data, watches: Self.watches(count), websocket: false)
            let w0 = try WalletDescriptor(
                parsing: "wpkh(\(WalletKeysForTests.account84)/0/<0;1>/*)",
                network: .mainnet
            )
            return try await EngineHarness.running(config, client: client) { store in
                try await eventually(timeout: .seconds(120), "the initial sync of \(count) wallets") {
                    let states = try store.read { try $0.walletStates(chain: "btc") }
                    return states.count == count && states.allSatisfy { $0.change.checkedUpTo == 1 }
                }
                // The recent blocks shown at start are fetched from spare budget, a few per round: done before
                // counting, or their /api/v2/block requests would depend on timing.
                try await eventually(timeout: .seconds(60), "the recent blocks stored for display") {
                    try store.read { try $0.recentHeaders(chain: "btc", limit: 20) }.count == 20
                }
                await simnet.resetStats()
                for block in 0..<3 {
                    for index in [2 * block, 2 * block + 1] {
                        let address = try w0.address(.receive, index: UInt32(index)).address.string
                        _ = try await simnet.pay(to: address, amountSat: 10_000 + Int64(index))
                    }
                    let mined = try #require(try await simnet.mine(count: 1).last)
                    try await EngineHarness.event(store, "block.new", where: { $0["hash"] == .string(mined.hash) })
                    // The addresses the block grew the window by are checked before the next payments (a payment
                    // to an address not checked yet costs one more summary request, which would make the counts
                    // depend on timing).
                    try await eventually(timeout: .seconds(30), "the grown window checked") {
                        let state = try store.read { try $0.walletState(chain: "btc", wallet: "w0") }
                        return state?.receive.lastUsed == 2 * block + 1
                            && state?.receive.checkedUpTo == state?.receive.derivedUpTo
                    }
                }
                let confirmed = try EngineHarness.events(store).filter {
                    $0["type"] == .string("address.tx.confirmed")
                }
                #expect(confirmed.count == 6)
                return await simnet.stats().families[.blockbook]?.endpoints ?? [:]
            }
        }
    }

    @Test func oneWalletAndAHundredCostTheSameRequestsPerBlock() async throws {
        let one = try await Self.requests(wallets: 1)
        let hundred = try await Self.requests(wallets: 100)
        print(
            "scan, 3 blocks: 1 wallet \(one.sorted { $0.key < $1.key }), 100 wallets \(hundred.sorted { $0.key < $1.key })"
        )
        #expect(one["/api/v2/block"] == hundred["/api/v2/block"])
        #expect((one["/api/v2/block"] ?? 0) > 0)
        // The tip is polled every second: its requests (/api/ and /api/v2/block-index) follow the wall clock, not
        // the blocks or the wallets.
        #expect(one["/api/v2/address"] == hundred["/api/v2/address"])
    }
}

/// BIP84's account key as an xpub (bitcoin/bips bip-0084.mediawiki).
enum WalletKeysForTests {
    static let account84 =
        "xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V"
}

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

/// The xpub strategy asks one wallet summary per wallet per round and nothing per address: with rounds started only
/// by blocks (`every` is an hour), 3 blocks cost each of 2 wallets 3 `/api/v2/xpub` requests, counted by the simnet,
/// whatever the payments the blocks bring.
@Suite(.serialized)
struct WalletXpubCostTests {
    static func watches() -> String {
        let wallets = (0..<2).map { n in
            #"{"id": "w\#(n)", "type": "wallet", "providers": ["bb"], "every": "1h", "strategy": "xpub", "gap": 5, "#
                + #""descriptor": "wpkh(\#(WalletKeysForTests.account84)/\#(n)/<0;1>/*)"}"#
        }
        return #"[{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"}, "#
            + wallets.joined(separator: ", ")
            + "]"
    }

    @Test func oneRequestPerWalletPerRound() async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            // The polled path's cost, one request per wallet per round; the push's is PushEngineTests'. A request
            // that outlived a 2 s timeout under the parallel phase's load was asked again (7 counted, twice in gate
            // runs): 30 s, so a retry is never what is counted.
            let config = try EngineHarness.config(
                simnet,
                data,
                watches: Self.watches(),
                websocket: false,
                timeout: "30s"
            )
            let wallets = try (0..<2).map { n in
                try WalletDescriptor(parsing: "wpkh(\(WalletKeysForTests.account84)/\(n)/<0;1>/*)", network: .mainnet)
            }
            try await EngineHarness.running(config, client: client) { store in
                try await eventually(timeout: .seconds(60), "the initial sync of 2 wallets") {
                    let states = try store.read { try $0.walletStates(chain: "btc") }
                    return states.count == 2 && states.allSatisfy { $0.change.checkedUpTo == 4 }
                }
                await simnet.resetStats()
                for block in 0..<3 {
                    // Payments inside the first window (and at its edge), one to each wallet: each confirmed by the
                    // block's round. Both wallets' rounds are seen committed (their payments confirmed) before the
                    // next block: a summary read that a block overtakes is dropped and read again by that block's
                    // round (one request more), which a wait on the requests' arrival alone let happen under load.
                    var paid: [String] = []
                    for wallet in wallets {
                        let address = try wallet.address(.receive, index: UInt32(2 * block)).address.string
                        paid.append(try await simnet.pay(to: address, amountSat: 10_000 + Int64(block)))
                    }
                    let mined = try #require(try await simnet.mine(count: 1).last)
                    try await EngineHarness.event(store, "block.new", where: { $0["hash"] == .string(mined.hash) })
                    for txid in paid {
                        try await EngineHarness.event(
                            store,
                            "address.tx.confirmed",
                            where: { $0["txid"] == .string(txid) }
                        )
                    }
                }
                let endpoints = await simnet.stats().families[.blockbook]?.endpoints ?? [:]
                print("xpub, 2 wallets, 3 blocks: \(endpoints.sorted { $0.key < $1.key })")
                #expect(endpoints["/api/v2/xpub"] == 6)
                #expect(endpoints["/api/v2/address"] == nil)
                let state = try #require(try store.read { try $0.walletState(chain: "btc", wallet: "w0") })
                #expect(state.receive.lastUsed == 4 && state.balanceSat == 30_003)
            }
        }
    }
}

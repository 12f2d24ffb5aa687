import Foundation
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// `GET /api/v2/xpub/<descriptor|xpub>` as Blockbook answers it: both branches derived up to the last used address
/// plus `gap`, "used" meaning confirmed, the mempool counted over every derived address, `tokens` filtered by
/// `tokens=`, paging over the confirmed transactions.
@Suite("Blockbook's xpub endpoint")
struct XpubEndpointTests {
    /// The BIP84 account of the BIP84 vectors with its origin (shared/fixtures/wallets/merchant_descriptors_computed.json).
    static let descriptor =
        "wpkh([73c5da0a/84h/0h/0h]xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V/<0;1>/*)#qf45pmyh"
    /// The zpub of the recorded mainnet response (Fixtures/blockbook/xpub-zpub-mainnet-txs.json).
    static let zpub =
        "zpub6ruK9k6YGm8BRHWvTiQcrEPnFkuRDJhR7mPYzV2LDvjpLa5CuGgrhCYVZjMGcLcFqv9b2WvsFtY2Gb3xq8NVq8qhk9veozrA2W9QaWtihrC"

    static func address(_ text: String, _ branch: WalletDescriptor.Branch, _ index: UInt32) throws -> String {
        try WalletDescriptor(parsing: text, network: .mainnet).address(branch, index: index).address.string
    }

    static func path(_ text: String, query: String) -> String {
        "/api/v2/xpub/" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") + "?" + query
    }

    @Test func theGapRuleDecidesWhichPaymentsTheWalletSees() async throws {
        try await Simnet.with(SimnetConfiguration(seed: 7, txsPerBlock: 2)) { simnet in
            let text = Self.descriptor
            // Receive 0 and 20 (the edge of 0 + gap), change 3; receive 41 lies past 20 + gap.
            for (branch, index, amount) in [
                (WalletDescriptor.Branch.receive, UInt32(0), Int64(10_000)), (.receive, 20, 20_000),
                (.change, 3, 3_000),
                (.receive, 41, 41_000),
            ] {
                _ = try await simnet.pay(to: try Self.address(text, branch, index), amountSat: amount)
            }
            try await simnet.mine(count: 1)
            let body = try await SimnetHarness.get(simnet, Self.path(text, query: "details=txs&tokens=used")).json()
            #expect(body["address"]?.stringValue == text)
            #expect(body["balance"]?.stringValue == "33000")
            #expect(body["txs"]?.int == 3)
            #expect(body["usedTokens"]?.int == 3)
            let tokens = body["tokens"]?.arrayValue ?? []
            #expect(
                tokens.compactMap { $0["path"]?.stringValue } == [
                    "m/84'/0'/0'/0/0", "m/84'/0'/0'/0/20", "m/84'/0'/0'/1/3",
                ]
            )
            let firstAddress = try Self.address(text, .receive, 0)
            #expect(tokens.first?["name"]?.stringValue == firstAddress)
            #expect(tokens.first?["balance"]?.stringValue == "10000")
            #expect((body["transactions"]?.arrayValue ?? []).count == 3)
            // One more address of gap reaches 41.
            let wider = try await SimnetHarness.get(simnet, Self.path(text, query: "details=basic&gap=21")).json()
            #expect(wider["balance"]?.stringValue == "74000")
            #expect(wider["tokens"] == nil && wider["unconfirmedBalance"] == nil && wider["page"] == nil)
            // tokens=derived: receive 0...40 (20 used + gap), change 0...23 (3 used + gap).
            let derived = try await SimnetHarness.get(simnet, Self.path(text, query: "details=tokens&tokens=derived"))
                .json()
            #expect(derived["tokens"]?.arrayValue?.count == 41 + 24)
            #expect(derived["tokens"]?.arrayValue?.first?["balance"] == nil)
            // A mempool payment counts in unconfirmedBalance and comes first on page 1.
            let pending = try await simnet.pay(to: try Self.address(text, .change, 10), amountSat: 5_000)
            let page = try await SimnetHarness.get(simnet, Self.path(text, query: "details=txids&pageSize=2")).json()
            #expect(page["unconfirmedBalance"]?.stringValue == "5000" && page["unconfirmedTxs"]?.int == 1)
            #expect(page["txids"]?.arrayValue?.first?.stringValue == pending)
            #expect(page["txids"]?.arrayValue?.count == 3)
            #expect(page["totalPages"]?.int == 2 && page["itemsOnPage"]?.int == 2)
            let second = try await SimnetHarness.get(simnet, Self.path(text, query: "details=txids&pageSize=2&page=2"))
                .json()
            #expect(second["txids"]?.arrayValue?.count == 1)
            let stats = await simnet.stats()
            #expect(stats.families[.blockbook]?.endpoints["/api/v2/xpub"] == 5)
        }
    }

    @Test func aBareZpubGetsBlockbooksPathsAndBadInputIsRefused() async throws {
        try await Simnet.with(SimnetConfiguration(seed: 8, txsPerBlock: 2)) { simnet in
            _ = try await simnet.pay(to: try Self.address(Self.zpub, .change, 1), amountSat: 1_234)
            try await simnet.mine(count: 1)
            let body = try await SimnetHarness.get(simnet, Self.path(Self.zpub, query: "details=tokenBalances")).json()
            #expect(body["tokens"]?.arrayValue?.first?["path"]?.stringValue == "m/84'/0'/0'/1/1")
            let missing = try await SimnetHarness.get(simnet, "/api/v2/xpub/")
            let message = try missing.json()["error"]?.stringValue
            #expect(missing.status == 400 && message == "Missing xpub")
            let multisig =
                "wsh(sortedmulti(1,xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V/<0;1>/*))"
            let refused = try await SimnetHarness.get(simnet, Self.path(multisig, query: "details=basic"))
            #expect(refused.status == 400)
            let garbage = try await SimnetHarness.get(simnet, Self.path("xpubnonsense", query: ""))
            #expect(garbage.status == 400)
        }
    }
}

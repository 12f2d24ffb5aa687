import EsploraAdapter
import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherTesting

/// Each recorded electrs body, decoded through the whole adapter over loopback, with the values the body holds.
@Suite struct EsploraFixtureTests {
    func withProvider(
        _ routes: [String: FixtureServer.Answer]? = nil,
        _ body: (EsploraProvider, FixtureServer) async throws -> Void
    ) async throws {
        try await FixtureServer.with(try routes ?? Fixture.routes()) { server in
            try await body(EsploraProvider(id: "es", baseURL: server.baseURL, http: server.http), server)
        }
    }

    @Test func tipIsTheHeightAndTheHashAtThatHeight() async throws {
        try await withProvider { provider, server in
            let tip = try await provider.tip()
            #expect(tip.height == 698_767)
            #expect(tip.hash == "0000000000000000000624d76f52661d0f35a0da8b93a87cb93cf08fd9140209")
            #expect(
                server.urls.map { $0.replacingOccurrences(of: server.baseURL, with: "") } == [
                    "/blocks/tip/height", "/block-height/698767",
                ]
            )
        }
    }

    @Test func blockByHeightAndByHash() async throws {
        try await withProvider { provider, _ in
            let block = try await provider.block(.height(363_366))
            #expect(block.hash == Fixture.blockHash)
            #expect(block.txCount == 494)
            #expect(block.nonce == 2_892_644_888)
            #expect(block.time == Date(timeIntervalSince1970: 1_435_766_771))
            #expect(block.merkleRoot == "9d3cb87bf05ebae366b4262ed5f768ce8c62fc385c3886c9cb097647b04b686c")
            #expect(block.previousHash == "000000000000000010c545b6fa3ef1f7cf45a2a8760b1ee9f2e89673218207ce")
            #expect(try await provider.block(.hash(Fixture.blockHash)) == block)
        }
    }

    /// Older electrs write `difficulty` as an integer (this file), newer ones as a float (`block-363366.json`).
    @Test func blocksWithAnIntegerDifficulty() async throws {
        let list = try JSONValue.parse(try Fixture.bytes("blocks-817970-10-blocks.json"))
        guard case .array(let blocks) = list else { throw FixtureShape() }
        var routes: [String: FixtureServer.Answer] = [:]
        for block in blocks {
            guard case .string(let id)? = block["id"] else { throw FixtureShape() }
            routes["/block/\(id)"] = FixtureServer.Answer(body: Array(block.serialized().utf8))
        }
        try await withProvider(routes) { provider, _ in
            let newest = try await provider.block(
                .hash("000000000000000000001eef3949082854a9df683d6627b2c148a338b6cba185")
            )
            #expect(newest.height == 817_970)
            #expect(newest.txCount == 4_024)
            #expect(newest.nonce == 34_040_615)
            let parent = try await provider.block(.hash(try #require(newest.previousHash)))
            #expect(parent.height == 817_969)
        }
    }

    /// The hash at a height comes from `/block-height/:h` as plain text, here for the tips of three halvings.
    @Test func blockHashesOfTheHalvings() async throws {
        for height in [210_000, 630_000, 840_000] {
            let routes = [
                "/blocks/tip/height": FixtureServer.Answer.text("\(height)"),
                "/block-height/\(height)": try Fixture.answer("block-height-\(height).txt"),
            ]
            let hash = try Fixture.text("block-height-\(height).txt")
            try await withProvider(routes) { provider, _ in
                let tip = try await provider.tip()
                #expect(tip == BlockRef(height: height, hash: hash))
            }
        }
    }

    @Test func addressSummaries() async throws {
        try await withProvider { provider, _ in
            let basic = try await provider.address(Fixture.basic)
            #expect(basic.balanceSat == 3_165_542)
            #expect(basic.totalReceivedSat == 9_141_224)
            #expect(basic.totalSentSat == 5_975_682)
            #expect(basic.txCount == 5)
            #expect(basic.unconfirmedBalanceSat == 0 && basic.unconfirmedTxCount == 0)
            // Sums above 2^32, exact: a zero balance with history.
            let big = try await provider.address("1wiz18xYmhRX6xStj2b9t1rwWX4GKUgpv")
            #expect(big.totalReceivedSat == 15_007_599_040)
            #expect(big.balanceSat == 0)
        }
    }

    @Test func taprootHistoryNewestFirstWithNetEffects() async throws {
        try await withProvider { provider, _ in
            let history = try await provider.addressTransactions(Fixture.taproot, limit: 50, after: nil)
            #expect(
                history.map(\.txid) == [
                    "f719010042cda872a6add2f98a51c3e0f9997a6d9cd92c321c8dab9ef69350be",
                    "23ac1179890cfed9d3b9cdb290ad4c98f890ec0781a3de1f7600ee5d48e06853",
                ]
            )
            #expect(history.map(\.deltaSat) == [-16_000, 16_000])
            #expect(history.allSatisfy { $0.blockHeight == 817_831 })
            #expect(history[0].time == Date(timeIntervalSince1970: 1_700_589_870))
        }
    }

    @Test func anEmptyMempoolHistory() async throws {
        let routes = ["/address/\(Fixture.basic)/txs": try Fixture.answer("address-txs-mempool-empty.json")]
        try await withProvider(routes) { provider, _ in
            let history = try await provider.addressTransactions(Fixture.basic, limit: 10, after: nil)
            #expect(history.isEmpty)
        }
    }

    @Test func transactions() async throws {
        try await withProvider { provider, _ in
            let multisig = try await provider.transaction(Fixture.multisigTx)
            #expect(multisig.blockHeight == 720_514)
            #expect(multisig.feeSat == 40_000)
            #expect(
                multisig.inputs == [
                    TxEndpoint(
                        address: "bc1qwqdg6squsna38e46795at95yu9atm8azzmyvckulcc7kytlcckxswvvzej",
                        valueSat: 376_589_779
                    )
                ]
            )
            #expect(multisig.outputs.map(\.valueSat) == [5_000_000, 69_594_023, 301_955_756])
            // OP_RETURN: no address, value 0.
            let opReturn = try await provider.transaction(
                "3bbb2f597e714257d4a2f573e9ebfff4ab631277186a40875dbbf4140e90b748"
            )
            #expect(opReturn.outputs.last == TxEndpoint(address: nil, valueSat: 0))
            #expect(opReturn.feeSat == 4_060)
            // mempool.space's `sigops`, a Runes OP_RETURN and an "unknown" witness v1 output that has an address.
            let runes = try await provider.transaction(
                "20b984492b5264162a4c92c9a34bc7fa08b67d669de7b4c5982ad3cb28aaecf6"
            )
            #expect(
                runes.outputs.map(\.address) == [
                    nil, "bc1p6uwxc048hflxaerh5zlastpqc7ye0zpvq7gq2a", "bc1qnzw0zfm5l3c9vztpp3aegx0j68zgqajyffr2r6",
                ]
            )
            #expect(runes.blockHeight == 848_136)
        }
    }

    /// `{"confirmed": false}` has no height, hash or time (electrs leaves them out, not `null`).
    @Test func anUnconfirmedTransaction() async throws {
        let status = try Fixture.text("tx-status-unconfirmed.json")
        var tx = try Fixture.text("tx-3bbb2f59-op-return-p2pkh.json")
        let start = try #require(tx.range(of: #""status": {"#))
        let end = try #require(tx[start.upperBound...].range(of: "}"))
        tx.replaceSubrange(start.lowerBound..<end.upperBound, with: #""status": "# + status)
        let txid = "3bbb2f597e714257d4a2f573e9ebfff4ab631277186a40875dbbf4140e90b748"
        try await withProvider(["/tx/\(txid)": FixtureServer.Answer(body: Array(tx.utf8))]) { provider, _ in
            let unconfirmed = try await provider.transaction(txid)
            #expect(unconfirmed.blockHeight == nil && unconfirmed.blockHash == nil && unconfirmed.time == nil)
            #expect(unconfirmed.confirmations(tipHeight: 900_000) == 0)
        }
    }

    @Test func electrsErrorBodiesMapToProviderErrors() async throws {
        let routes: [String: FixtureServer.Answer] = [
            "/block/\(String(repeating: "0", count: 64))": try Fixture.answer(
                "error-block-not-found-404.txt",
                status: 404
            ),
            "/address/notanaddress": try Fixture.answer("error-invalid-hex-string-400.txt", status: 400),
            "/blocks/tip/height": try Fixture.answer(
                "error-rate-limited-429-blockstream.json",
                status: 429,
                headers: [("Retry-After", "60")]
            ),
        ]
        try await withProvider(routes) { provider, _ in
            await #expect(
                throws: ProviderError.notFound(provider: "es", what: "block \(String(repeating: "0", count: 64))")
            ) {
                _ = try await provider.block(.hash(String(repeating: "0", count: 64)))
            }
            await #expect(
                throws: ProviderError.badRequest(provider: "es", detail: "address notanaddress: Invalid hex string")
            ) {
                _ = try await provider.address("notanaddress")
            }
            await #expect(throws: ProviderError.rateLimited(provider: "es", retryAfter: .seconds(60))) {
                _ = try await provider.tip()
            }
            // A height above the tip: electrs answers 404.
            do {
                _ = try await provider.block(.height(1))
                Issue.record("block 1 has no route")
            } catch ProviderError.notFound(let id, let what) {
                #expect(id == "es" && what == "block 1")
            }
        }
    }

    /// A URL that answers 404 for the tip serves no Esplora API (a missing `/api`, say): unavailable, naming it.
    @Test func aURLWithoutTheAPIIsUnavailable() async throws {
        try await withProvider([:]) { provider, server in
            do {
                _ = try await provider.tip()
                Issue.record("a tip without a route")
            } catch ProviderError.unavailable(let id, let status, let detail) {
                #expect(id == "es" && status == 404)
                #expect(detail == "no Esplora API at \(server.baseURL)/blocks/tip/height")
            }
        }
    }

    struct FixtureShape: Error {}
}

import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherTesting

@testable import BitcoindAdapter

/// The contract kit in fixture mode for a JSON-RPC API: `FixtureServer` routes each call of a `POST /` by its
/// method (and params), so the bitcoind adapter keeps every rule and maps every fault against Core's recorded
/// bodies (Fixtures/SOURCES.md).
@Suite struct BitcoindContractFixtureTests {
    static let block1 = "00000000839a8e6886ab5951d76f411475428afc90947ee320161bbf18eb6048"
    static let txid = "80b19848aed792565ab7c5a79b7c2a00fbf985741579396ebe0ab6098e607311"

    static func text(_ name: String) throws -> String { String(decoding: try Recorded.bytes(name), as: UTF8.self) }

    /// The recorded bodies by route: the tip from `getblockchaininfo`, block 1 by height (`getblockhash [1]`
    /// answered with the hash its `getblock` body names) and by hash (that body serves `getblockheader`: it has every
    /// field the adapter reads, and its `tx` list gives the count), a mempool transaction, and Core's own `-5` for any
    /// other block or transaction.
    static func routes() throws -> [String: FixtureServer.RPCReply] {
        let notFound = try text("error-object-rpc-5-no-such-mempool-or-blockchain-transaction.json")
        return [
            "getblockchaininfo": .result(try text("getblockchaininfo-main-764955-core23.json")),
            "getnetworkinfo": .error(#"{"code": -32601, "message": "Method not found"}"#),
            "getblockhash [1]": .result("\"\(block1)\""),
            "getblockhash": .error(try text("error-object-rpc-8-block-height-out-of-range.json")),
            "getblockheader [\"\(block1)\"]": .result(try text("getblock-main-1-verbosity1-core0131.json")),
            "getblockheader": .error(#"{"code": -5, "message": "Block not found"}"#),
            "getblock": .error(#"{"code": -5, "message": "Block not found"}"#),
            "getrawtransaction [\"\(txid)\",2]": .result(
                try text("getrawtransaction-verbose-regtest-80b19848-mempool.json")
            ),
            "getrawtransaction": .error(notFound),
        ]
    }

    static let samples = FixtureContract.Samples(
        height: 1,
        address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
        txid: txid
    )

    @Test func theBitcoindAdapterKeepsTheContractOnRecordedBodies() async throws {
        try await FixtureContract.run([:], rpc: try Self.routes(), samples: Self.samples) { baseURL, http in
            BitcoindProvider(id: "node", baseURL: baseURL, http: http, auth: .password(user: "u", password: "p"))
        }
    }

    @Test func callsAndBatchesAreRoutedByMethodWithTheirIDs() async throws {
        try await FixtureServer.with([:], rpc: try Self.routes()) { server in
            let provider = BitcoindProvider(
                id: "node",
                baseURL: server.baseURL,
                http: server.http,
                auth: .password(user: "u", password: "p")
            )
            // health() is a batch of two: a result and an error, each matched by id.
            let health = try await provider.health()
            #expect(health == ProviderHealth(isHealthy: true, bestHeight: 764_955))
            let header = try await provider.block(.height(1))
            #expect(header.hash == Self.block1 && header.txCount == 1)
            await #expect(throws: ProviderError.notFound(provider: "node", what: "block 2 (the tip is at 764955)")) {
                try await provider.block(.height(2))
            }
            // 1 (health) + 2 (hash, header) + 4 (hash -8, tip, hash -8 again, tip): each call one request.
            #expect(server.requests.count == 7)
        }
    }
}

import Foundation
import Testing
import WatcherCore
import WatcherHTTP
import WatcherJSON
import WatcherTesting

@testable import BitcoindAdapter

/// `rest: true`: headers, hashes by height and blocks from `/rest/`, with no credentials and no RPC call. The REST
/// bodies are the recorded RPC results in REST's framing (`headers/<hash>.json` is an array of `getblockheader`
/// objects, `.hex` bodies are the hex results with a newline), as `doc/REST-interface.md` describes them.
@Suite struct BitcoindRESTTests {
    @Test func headersHashesAndRawBlocksFromREST() async throws {
        let header = try Recorded.json("getblockheader-test-1000-core0121.json")
        let hash = try #require(header["hash"]?.stringValue)
        let block = try Recorded.json("getblock-main-1-verbosity1-core0131.json")
        let blockHash = try #require(block["hash"]?.stringValue)
        let rawHex = String(decoding: try Recorded.bytes("getblock-main-1-verbosity0-core0131.txt"), as: UTF8.self)
        let node = RecordedNode(
            [:],
            rest: [
                "headers/\(hash).json": Array(JSONValue.array([header]).serialized().utf8),
                "blockhashbyheight/1000.hex": Array((hash + "\n").utf8),
                "headers/\(blockHash).json": Array(JSONValue.array([block]).serialized().utf8),
                "block/\(blockHash).hex": Array((rawHex + "\n").utf8),
            ]
        )
        try await node.serve { url in
            try await FixtureServer.withTransport { http in
                let provider = BitcoindProvider(
                    id: "node",
                    baseURL: url,
                    http: http,
                    auth: .password(user: "watcher", password: "x"),
                    chain: "btc-testnet",
                    rest: true,
                    prevouts: false
                )
                #expect(try await provider.block(.height(1000)).hash == hash)
                let page = try await provider.blockTransactions(.hash(blockHash), page: 1)
                #expect(
                    page.transactions.map(\.txid) == [
                        "0e3e2357e806b6cdb1f70b54c3a3a17b6714ee1f0e68bebb44a74b1efd512098"
                    ]
                )
                #expect(page.transactions.first?.blockHeight == 1)
                // A height REST does not know: 404, then the tip is asked over RPC (which this node refuses).
                await #expect(throws: ProviderError.self) { try await provider.block(.height(2000)) }
            }
        }
        #expect(node.methods == ["getblockchaininfo"], "only the tip re-read after the unknown height is RPC")
    }
}

import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherTesting

@testable import BitcoindAdapter

/// Block scans with prevouts (`getblock <hash> 3`), then a lookup of one of the block's transactions by the block
/// hint a node without `-txindex` needs.
@Suite struct BitcoindBlockScanTests {
    static let cookie = "__cookie__:0f0e0d0c0b0a09080706050403020100"
    static let txid = "80b19848aed792565ab7c5a79b7c2a00fbf985741579396ebe0ab6098e607311"

    /// COMPOSED, not captured (Fixtures/SOURCES.md): the verbosity-1 block 1 with its `tx` replaced by the
    /// recorded regtest transaction, whose `vin[0].prevout` is the recorded REST UTXO.
    static func composedVerbosity3Block() throws -> (hash: String, body: JSONValue) {
        let block = try Recorded.json("getblock-main-1-verbosity1-core0131.json")
        let utxo = try #require(try Recorded.json("rest-getutxos-checkmempool-testnet.json")["utxos"]?[0])
        var transaction = try Recorded.json("getrawtransaction-verbose-regtest-80b19848-mempool.json")
        let prevout = JSONValue.object([
            .init("generated", .bool(false)), .init("height", .number("100")),
            .init("value", try #require(utxo["value"])), .init("scriptPubKey", try #require(utxo["scriptPubKey"])),
        ])
        guard case .object(var members) = transaction, case .array(var vin)? = transaction["vin"],
            case .object(var input) = vin[0]
        else { throw Composition() }
        input.append(.init("prevout", prevout))
        vin[0] = .object(input)
        members = members.map { $0.key == "vin" ? .init("vin", .array(vin)) : $0 }
        transaction = .object(members)
        guard case .object(let blockMembers) = block else { throw Composition() }
        let body = JSONValue.object(blockMembers.map { $0.key == "tx" ? .init("tx", .array([transaction])) : $0 })
        return (try #require(block["hash"]?.stringValue), body)
    }

    struct Composition: Error {}

    @Test func prevoutsValueInputsAndTheBlockHintFindsTheTransaction() async throws {
        let (hash, body) = try Self.composedVerbosity3Block()
        let node = RecordedNode([
            "getblock [\"\(hash)\",3]": .result(body),
            "getblockheader [\"\(hash)\"]": .result(try Recorded.json("getblock-main-1-verbosity1-core0131.json")),
            "getrawtransaction [\"\(Self.txid)\",2,\"\(hash)\"]": .result(
                try Recorded.json("getrawtransaction-verbose-regtest-80b19848-mempool.json")
            ),
        ])
        try await Recorded.withCookie(Self.cookie) { path in
            node.accept(Recorded.basic(Self.cookie))
            try await node.serve { url in
                try await FixtureServer.withTransport { http in
                    let provider = BitcoindProvider(
                        id: "node",
                        baseURL: url,
                        http: http,
                        auth: .cookieFile(path),
                        chain: "btc-regtest"
                    )
                    let page = try await provider.blockTransactions(.hash(hash), page: 1)
                    let tx = try #require(page.transactions.first)
                    #expect(tx.txid == Self.txid)
                    #expect(tx.blockHeight == 1)
                    // The block's time: a transaction object of getblock carries none.
                    #expect(tx.time == Date(timeIntervalSince1970: 1_231_469_665))
                    #expect(
                        tx.inputs == [TxEndpoint(address: "mi7as51dvLJsizWnTMurtRmrP8hG2m1XvD", valueSat: 886_870_000)]
                    )
                    #expect(tx.feeSat == Int64(886_870_000 - 30_000_000 - 79_999_200))
                    // Page 1 again comes from the block read, without a request.
                    let before = node.requests
                    _ = try await provider.blockTransactions(.hash(hash), page: 1)
                    #expect(node.requests == before)
                    // A page past the last is empty, as the contract kit wants of every provider.
                    let past = try await provider.blockTransactions(.hash(hash), page: 2)
                    #expect(past.transactions.isEmpty && past.totalPages == 1)
                    // The block is the hint: the transaction and its block's height in one batch, then (the recorded
                    // answer is verbosity 1's, without prevouts) one batch for its inputs' parents.
                    let looked = try await provider.transaction(Self.txid)
                    #expect(node.requests == before + 2)
                    #expect(looked.blockHeight == 1)
                    #expect(looked.blockHash == hash)
                    #expect(looked.outputs == tx.outputs)
                }
            }
        }
        #expect(node.methods == ["getblock", "getrawtransaction", "getblockheader", "getrawtransaction"])
    }
}

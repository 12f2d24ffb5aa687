import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// The Bitcoin Core face against real Core bodies (`Fixtures/bitcoind/SOURCES.md`), as `ShapeParityTests` does for
/// Blockbook: every key path of the real result appears in the simnet's with the same JSON type (extra keys are
/// fine), error objects are equal, and plain bodies are byte for byte the same. Where a field depends on the data
/// (`txinwitness` needs a segwit input, `nextblockhash` a block below the tip) the test looks through candidates.
@Suite("Bitcoin Core face parity with real node bodies")
struct BitcoindParityTests {
    static let configuration = SimnetConfiguration(seed: 42)

    private func real(_ name: String) throws -> JSONShape {
        JSONShape(try JSONValue.parse(try NodeHarness.fixture(name)))
    }

    /// Asserts that one of the candidate results covers the fixture's shape.
    private func expectCovered(
        _ fixture: String,
        by candidates: [JSONValue],
        except exceptions: [JSONShape.Exception] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let realShape = try real(fixture)
        var best: [String]?
        for candidate in candidates {
            let problems = JSONShape(candidate).violations(coveringReal: realShape, except: exceptions)
            if problems.isEmpty { return }
            if best == nil || problems.count < best?.count ?? 0 { best = problems }
        }
        Issue.record("nothing covers \(fixture): \(best ?? ["no candidates"])", sourceLocation: sourceLocation)
    }

    @Test func chainInfoHeadersAndBlocks() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await simnet.mine(count: 2)
            let info = try await NodeHarness.result(simnet, "getblockchaininfo")
            try expectCovered(
                "getblockchaininfo-main-764955-core23.json",
                by: [info],
                // Core 28 made `warnings` an array (a string in the 23.0 capture); the simnet speaks 29.
                except: [.init(path: "$.warnings", reason: "an array since Core 28")]
            )
            #expect(info["warnings"] == .array([]))
            let restInfo = try await SimnetHarness.get(simnet, "/rest/chaininfo.json").json()
            #expect(restInfo == info)

            let height = (await simnet.tip()).height - 1
            let hash = try #require(try await NodeHarness.result(simnet, "getblockhash", "[\(height)]").stringValue)
            let header = try await NodeHarness.result(simnet, "getblockheader", #"["\#(hash)"]"#)
            try expectCovered("getblockheader-test-1000-core0121.json", by: [header])
            let block = try await NodeHarness.result(simnet, "getblock", #"["\#(hash)"]"#)
            try expectCovered("getblock-main-1-verbosity1-core0131.json", by: [block])

            // The hex forms: the real ones parse and hash as the fixture says; the simnet's the same way.
            let realHeader = try RawBlockHeader(
                hex: String(
                    decoding: try NodeHarness.fixture("getblockheader-test-1000-core0121-verbose-false.txt"),
                    as: UTF8.self
                )
            )
            #expect(realHeader.hash.displayHex == "00000000c937983704a73af28acdec37b049d214adbda81d7e2a3dd146f6ed09")
            let realBlock = try RawBlock(
                hex: String(decoding: try NodeHarness.fixture("getblock-main-1-verbosity0-core0131.txt"), as: UTF8.self)
            )
            #expect(realBlock.hasValidMerkleRoot)
            let headerHex = try await NodeHarness.result(simnet, "getblockheader", #"["\#(hash)",false]"#)
            #expect(try RawBlockHeader(hex: try #require(headerHex.stringValue)).hash.displayHex == hash)
            let blockHex = try await NodeHarness.result(simnet, "getblock", #"["\#(hash)",0]"#)
            #expect(try RawBlock(hex: try #require(blockHex.stringValue)).hasValidMerkleRoot)
        }
    }

    @Test func transactions() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await simnet.mine(count: 1)
            let chain = await simnet.chain()
            let block = try #require(chain.block(height: chain.tip.height - 1))
            var confirmed: [JSONValue] = []
            for txid in block.txids.dropFirst() {
                confirmed.append(try await NodeHarness.result(simnet, "getrawtransaction", #"["\#(txid)",true]"#))
            }
            try expectCovered("getrawtransaction-verbose-testnet-e56da664-confirmed.json", by: confirmed)

            let funded = try #require(await simnet.addresses().first)
            for _ in 0..<4 { try await simnet.pay(to: funded.address, amountSat: 10_000) }
            var pending: [JSONValue] = []
            for txid in await simnet.chain().mempool {
                pending.append(try await NodeHarness.result(simnet, "getrawtransaction", #"["\#(txid)",1]"#))
            }
            for fixture in [
                "getrawtransaction-verbose-regtest-80b19848-mempool.json",
                "getrawtransaction-verbose-testnet-08b4283f-mixed-inputs.json",
            ] {
                try expectCovered(fixture, by: pending)
            }
            for tx in pending { #expect(tx["blockhash"] == nil && tx["confirmations"] == nil) }
            // Composed, not captured: no real `getblock … 2` body is recorded. Its transactions are the verbose
            // transaction without the block fields, plus `fee`; they must cover the mempool capture.
            let two = try await NodeHarness.result(simnet, "getblock", #"["\#(block.hash)",2]"#)
            try expectCovered(
                "getrawtransaction-verbose-regtest-80b19848-mempool.json",
                by: two["tx"]?.arrayValue.map { Array($0.dropFirst()) } ?? []
            )

            let mempool = try await NodeHarness.result(simnet, "getrawmempool")
            try expectCovered("getrawmempool-core0131.json", by: [mempool])
        }
    }

    @Test func errorObjectsAndPlainBodies() async throws {
        func fixture(_ name: String) throws -> JSONValue { try JSONValue.parse(try NodeHarness.fixture(name)) }
        var configuration = Self.configuration
        configuration.txindex = false
        try await Simnet.with(configuration) { simnet in
            let unknown = String(repeating: "0f", count: 32)
            #expect(
                try await NodeHarness.error(simnet, "getblockhash", "[\((await simnet.tip()).height + 1)]")
                    == fixture("error-object-rpc-8-block-height-out-of-range.json")
            )
            #expect(
                try await NodeHarness.error(simnet, "getrawtransaction", #"["\#(unknown)"]"#)
                    == fixture("error-object-rpc-5-no-such-mempool-transaction-no-txindex.json")
            )
            await simnet.setNodeSettings(NodeSettings(warmup: true))
            #expect(
                try await NodeHarness.error(simnet, "getblockcount")
                    == fixture("error-object-rpc-28-warmup-loading-block-index.json")
            )
            await simnet.setNodeSettings(NodeSettings(workQueueFull: true))
            let full = try await NodeHarness.post(simnet, #"{"id":1,"method":"getblockcount"}"#)
            let expected = try NodeHarness.fixture("error-http503-work-queue-depth-exceeded.txt")
            #expect(full.status == 503 && full.body == expected)
        }
        try await Simnet.with(Self.configuration) { simnet in
            let unknown = String(repeating: "0f", count: 32)
            #expect(
                try await NodeHarness.error(simnet, "getrawtransaction", #"["\#(unknown)"]"#)
                    == fixture("error-object-rpc-5-no-such-mempool-or-blockchain-transaction.json")
            )
            // The transcribed HTTP answers: 401 (empty body, the challenge), 405 (its text), the empty batch.
            let described = try #require(try fixture("http-responses-transcribed.json")["responses"]?.arrayValue)
            func row(_ status: Int) -> JSONValue? { described.first { $0["status"]?.int == status } }
            let unauthorized = try await NodeHarness.post(
                simnet,
                #"{"id":1,"method":"getblockcount"}"#,
                authorization: nil
            )
            #expect(unauthorized.status == 401 && unauthorized.text == row(401)?["body"]?.stringValue)
            #expect(unauthorized.header("WWW-Authenticate") == row(401)?["headers"]?["WWW-Authenticate"]?.stringValue)
            let get = try await SimnetHarness.get(simnet, "/")
            #expect(get.status == 405 && get.text == row(405)?["body"]?.stringValue)
            let empty = try await NodeHarness.post(simnet, "[]")
            let emptyRow = described.first { $0["case"]?.stringValue == "empty batch []" }
            #expect(try empty.json() == emptyRow?["body"])
        }
    }
}

import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// The Bitcoin Core face's REST interface over real HTTP (no auth, as Core's): every format of every resource
/// parses back with WatcherBitcoin and agrees with JSON-RPC.
@Suite("Bitcoin Core REST")
struct BitcoindRESTTests {
    static let configuration = SimnetConfiguration(seed: 42)

    @Test func blockHashByHeightAndHeaders() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await simnet.mine(count: 3)
            let tip = await simnet.tip()
            let start = tip.height - 3
            let hash = try await SimnetHarness.get(simnet, "/rest/blockhashbyheight/\(start).json").json()
            let startHash = try #require(hash["blockhash"]?.stringValue)
            #expect(
                try await SimnetHarness.get(simnet, "/rest/blockhashbyheight/\(start).hex").text == startHash + "\n"
            )
            let bin = try await SimnetHarness.get(simnet, "/rest/blockhashbyheight/\(start).bin")
            #expect(Hash256(bytes: bin.body)?.displayHex == startHash, "internal byte order")
            let above = try await SimnetHarness.get(simnet, "/rest/blockhashbyheight/\(tip.height + 1).json")
            #expect(above.status == 404 && above.text == "Block height out of range\r\n")
            let bad = try await SimnetHarness.get(simnet, "/rest/blockhashbyheight/x.json")
            #expect(bad.status == 400 && bad.text.hasPrefix("Invalid height: x"))

            // Headers upward from `start`: linked by hash, the last one the tip; fewer when the chain ends.
            let raw = try await SimnetHarness.get(simnet, "/rest/headers/10/\(startHash).bin").body
            #expect(raw.count == 4 * 80)
            var previous: Hash256?
            for offset in stride(from: 0, to: raw.count, by: 80) {
                let header = try RawBlockHeader(bytes: Array(raw[offset..<offset + 80]))
                if let previous { #expect(header.previousBlockHash == previous) }
                previous = header.hash
            }
            #expect(previous?.displayHex == tip.hash)
            let hex = try await SimnetHarness.get(simnet, "/rest/headers/2/\(startHash).hex").text
            #expect(hex == Hex.encode(raw.prefix(160)) + "\n")
            let json = try await SimnetHarness.get(simnet, "/rest/headers/\(startHash).json?count=2").json()
            let rpcHeader = try await NodeHarness.result(simnet, "getblockheader", #"["\#(startHash)"]"#)
            #expect(json.arrayValue?.count == 2 && json[0] == rpcHeader)
            let tooMany = try await SimnetHarness.get(simnet, "/rest/headers/2001/\(startHash).json")
            #expect(tooMany.status == 400)

            // A hash off the main chain gives no headers.
            let replaced = try await simnet.reorg(depth: 1)
            let stale = try #require(replaced.first?.oldHash)
            #expect(try await SimnetHarness.get(simnet, "/rest/headers/5/\(stale).json").json() == .array([]))
        }
    }

    @Test func blocksAndTransactions() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await simnet.mine(count: 1)
            let chain = await simnet.chain()
            let block = try #require(chain.block(height: chain.tip.height - 1))
            let raw = try RawBlock(bytes: try await SimnetHarness.get(simnet, "/rest/block/\(block.hash).bin").body)
            #expect(raw.hash.displayHex == block.hash && raw.hasValidMerkleRoot)
            #expect(raw.txids.map(\.displayHex) == block.txids)
            let hex = try await SimnetHarness.get(simnet, "/rest/block/\(block.hash).hex")
            #expect(hex.header("Content-Type") == "text/plain" && hex.text == Hex.encode(raw.serialized()) + "\n")
            let json = try await SimnetHarness.get(simnet, "/rest/block/\(block.hash).json")
            #expect(json.header("Content-Type") == "application/json")
            let rpc = try await NodeHarness.result(simnet, "getblock", #"["\#(block.hash)",3]"#)
            #expect(try json.json() == rpc, "REST's block JSON is verbosity 3")
            let light = try await SimnetHarness.get(simnet, "/rest/block/notxdetails/\(block.hash).json").json()
            #expect(light["tx"]?[0]?.stringValue == block.txids[0])

            let txid = block.txids[1]
            let txHex = try await SimnetHarness.get(simnet, "/rest/tx/\(txid).hex").text
            #expect(try Transaction(hex: txHex.dropLast()).txid.displayHex == txid)
            let txJSON = try await SimnetHarness.get(simnet, "/rest/tx/\(txid).json").json()
            #expect(txJSON["blockhash"]?.stringValue == block.hash && txJSON["confirmations"] == nil)
            #expect(txJSON.members?.suffix(2).map(\.key) == ["blockhash", "hex"])

            let unknown = String(repeating: "1", count: 64)
            let missing = try await SimnetHarness.get(simnet, "/rest/tx/\(unknown).json")
            #expect(missing.status == 404 && missing.text == "\(unknown) not found\r\n")
            #expect(try await SimnetHarness.get(simnet, "/rest/block/\(unknown).bin").status == 404)
            #expect(try await SimnetHarness.get(simnet, "/rest/block/\(block.hash).xml").status == 404)
            #expect(try await SimnetHarness.get(simnet, "/rest/block/nothex.json").status == 400)
        }
    }
}

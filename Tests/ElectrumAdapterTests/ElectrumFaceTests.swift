import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

@testable import ElectrumAdapter

/// The simnet's Electrum face over real loopback TCP: session start, headers, scripthash data against the chain's
/// truth, and notifications on every kind of chain change.
@Suite("The simnet's Electrum face")
struct ElectrumFaceTests {
    @Test("server.version negotiates per personality; an impossible range is refused and the connection closed")
    func version() async throws {
        try await ElectrumHarness.with(personality: .electrs) { _, client, _ in
            let result = try await client.call(
                "server.version",
                [.string("watcher/0.1"), .array([.string("1.4"), .string("1.6")])]
            )
            #expect(result == .array([.string("electrs/0.10.9"), .string("1.4")]))
        }
        try await ElectrumHarness.with(personality: .fulcrum) { _, client, _ in
            let result = try await client.call(
                "server.version",
                [.string("watcher/0.1"), .array([.string("1.4"), .string("1.6")])]
            )
            #expect(result[1] == .string("1.6"))
        }
        try await ElectrumHarness.with { _, client, inbox in
            await #expect(throws: ElectrumClient.Failure.server(code: 1, message: "unsupported protocol version: 2.0"))
            {
                _ = try await client.call("server.version", [.string("watcher/0.1"), .string("2.0")])
            }
            try await eventually("the connection closed") { inbox.closedReason != nil }
        }
    }

    @Test("server.features names mainnet's genesis and sha256; ping answers null")
    func features() async throws {
        try await ElectrumHarness.with { _, client, _ in
            let features = try await client.call("server.features")
            #expect(
                features["genesis_hash"]?.stringValue
                    == "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f"
            )
            #expect(features["hash_function"]?.stringValue == "sha256")
            #expect(features["protocol_min"]?.stringValue == "1.4")
            #expect(try await client.call("server.ping") == .null)
        }
    }

    @Test("headers: the subscription's header hashes to the tip, notifications follow mining, block.header(s) agree")
    func headers() async throws {
        try await ElectrumHarness.with { simnet, client, inbox in
            let tip = await simnet.tip()
            let subscribed = try await client.call("blockchain.headers.subscribe")
            #expect(subscribed["height"]?.int == tip.height)
            let header = try RawBlockHeader(hex: try #require(subscribed["hex"]?.stringValue))
            #expect(header.hash.displayHex == tip.hash)
            let mined = try await simnet.mine(count: 2)
            try await eventually("a header notification for the new tip") {
                inbox.params(of: "blockchain.headers.subscribe").last?.first?["height"]?.int == mined[1].height
            }
            let single = try await client.call("blockchain.block.header", [.integer(mined[0].height)])
            #expect(try RawBlockHeader(hex: try #require(single.stringValue)).hash.displayHex == mined[0].hash)
            let range = try await client.call("blockchain.block.headers", [.integer(tip.height), .integer(5)])
            #expect(range["count"]?.int == 3)
            #expect(range["max"]?.int == 2016)
            let hex = try #require(range["hex"]?.stringValue)
            #expect(hex.utf8.count == 3 * 160)
            #expect(try RawBlockHeader(hex: hex.suffix(160)).hash.displayHex == mined[1].hash)
            await #expect(throws: ElectrumClient.Failure.server(code: -32602, message: "invalid params")) {
                _ = try await client.call("blockchain.block.header", [.integer(tip.height), .integer(tip.height)])
            }
        }
    }

    @Test("protocol 1.6 (fulcrum) answers block.headers with a headers array")
    func headersArray() async throws {
        try await ElectrumHarness.with(personality: .fulcrum) { simnet, client, _ in
            _ = try await client.call(
                "server.version",
                [.string("watcher/0.1"), .array([.string("1.4"), .string("1.6")])]
            )
            let tip = await simnet.tip()
            let range = try await client.call("blockchain.block.headers", [.integer(tip.height - 1), .integer(2)])
            let recorded = try ElectrumHarness.fixtureJSON("block-headers-main-0-2-protocol16.json")
            #expect(range.keys.sorted() == recorded.keys.sorted())
            let headers = try #require(range["headers"]?.arrayValue)
            #expect(headers.count == 2)
            #expect(try RawBlockHeader(hex: try #require(headers[1].stringValue)).hash.displayHex == tip.hash)
        }
    }

    @Test("scripthash history, balance and unspent outputs agree with the chain's truth for every funded address")
    func addressData() async throws {
        try await ElectrumHarness.with { simnet, client, _ in
            let truths = await simnet.addresses()
            let chain = await simnet.chain()
            for truth in truths.prefix(8) {
                let scripthash = try ElectrumHarness.scripthash(truth.address)
                let history = try #require(
                    try await client.call("blockchain.scripthash.get_history", [.string(scripthash)]).arrayValue
                )
                #expect(history.count == truth.confirmedTxCount + truth.unconfirmedTxCount, "\(truth.address)")
                for entry in history {
                    let txid = try #require(entry["tx_hash"]?.stringValue)
                    let height = try #require(entry["height"]?.int)
                    if height > 0 {
                        #expect(chain.location(of: txid)?.height == height)
                        #expect(entry["fee"] == nil)
                    } else {
                        #expect(chain.location(of: txid) == nil)
                        #expect(entry["fee"]?.int == Int(chain.transaction(txid)?.fee ?? -1))
                    }
                }
                let balance = try await client.call("blockchain.scripthash.get_balance", [.string(scripthash)])
                #expect(balance["confirmed"]?.int == Int(truth.confirmedBalanceSat))
                #expect(balance["unconfirmed"]?.int == Int(truth.unconfirmedBalanceSat))
                let unspent = try #require(
                    try await client.call("blockchain.scripthash.listunspent", [.string(scripthash)]).arrayValue
                )
                #expect(unspent.count == truth.unspentOutputCount)
                let status = try await client.call("blockchain.scripthash.subscribe", [.string(scripthash)])
                let entries = history.map {
                    ElectrumHash.Entry(txHash: $0["tx_hash"]?.stringValue ?? "", height: $0["height"]?.int ?? 0)
                }
                #expect(status == (ElectrumHash.status(entries).map(JSONValue.string) ?? .null))
            }
            let unknown = String(repeating: "ab", count: 32)
            #expect(try await client.call("blockchain.scripthash.subscribe", [.string(unknown)]) == .null)
            #expect(try await client.call("blockchain.scripthash.get_history", [.string(unknown)]) == .array([]))
            await #expect(throws: ElectrumClient.Failure.server(code: -32602, message: "invalid params")) {
                _ = try await client.call("blockchain.scripthash.get_history", [.string("nothex")])
            }
        }
    }

    @Test("transactions: raw hex hashes to the txid, verbose is refused as Blockstream's electrs does, merkle proves")
    func transactions() async throws {
        try await ElectrumHarness.with { simnet, client, _ in
            let tip = await simnet.tip()
            let chain = await simnet.chain()
            let block = try #require(chain.block(height: tip.height))
            let txid = block.txids[block.txids.count - 1]
            let raw = try await client.call("blockchain.transaction.get", [.string(txid)])
            #expect(try Transaction(hex: try #require(raw.stringValue)).txid.displayHex == txid)
            await #expect(
                throws: ElectrumClient.Failure.server(
                    code: nil,
                    message: "verbose transactions are currently unsupported"
                )
            ) {
                _ = try await client.call("blockchain.transaction.get", [.string(txid), .bool(true)])
            }
            await #expect(throws: ElectrumClient.Failure.self) {
                _ = try await client.call("blockchain.transaction.get", [.string(String(repeating: "0", count: 64))])
            }
            let proof = try await client.call(
                "blockchain.transaction.get_merkle",
                [.string(txid), .integer(tip.height)]
            )
            let recorded = try ElectrumHarness.fixtureJSON("transaction-get-merkle-main-450538.json")
            #expect(proof.keys.sorted() == recorded.keys.sorted())
            #expect(proof["block_height"]?.int == tip.height)
            var node = try #require(Hash256(displayHex: txid))
            var position = try #require(proof["pos"]?.int)
            #expect(position == block.txids.count - 1)
            for sibling in try #require(proof["merkle"]?.arrayValue) {
                let other = try #require(Hash256(displayHex: sibling.stringValue ?? ""))
                node = Hash256(hashing: position % 2 == 0 ? node.bytes + other.bytes : other.bytes + node.bytes)
                position /= 2
            }
            #expect(node.displayHex == block.merkleRoot)
        }
    }

    @Test("a subscribed scripthash is notified on a payment, on mining, on a replacement and on a reorg")
    func statusNotifications() async throws {
        try await ElectrumHarness.with { simnet, client, inbox in
            let payee = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
            let scripthash = try ElectrumHarness.scripthash(payee)
            #expect(try await client.call("blockchain.scripthash.subscribe", [.string(scripthash)]) == .null)
            func current() async throws -> JSONValue {
                let history = try #require(
                    try await client.call("blockchain.scripthash.get_history", [.string(scripthash)]).arrayValue
                )
                let entries = history.map {
                    ElectrumHash.Entry(txHash: $0["tx_hash"]?.stringValue ?? "", height: $0["height"]?.int ?? 0)
                }
                return ElectrumHash.status(entries).map(JSONValue.string) ?? .null
            }
            func notified(_ count: Int, _ what: String) async throws {
                try await eventually(what) { inbox.params(of: "blockchain.scripthash.subscribe").count >= count }
                let last = try #require(inbox.params(of: "blockchain.scripthash.subscribe").last)
                #expect(last[0] == .string(scripthash))
                #expect(last[1] == (try await current()), "\(what)")
            }
            let txid = try await simnet.pay(to: payee, amountSat: 50_000)
            try await notified(1, "the mempool payment's status")
            // The replacement pays someone else: the payee's history empties (status null, as evicted).
            _ = try await simnet.replace(txid)
            try await notified(2, "the eviction's status")
            #expect(inbox.params(of: "blockchain.scripthash.subscribe").last?[1] == .null)
            try await simnet.pay(to: payee, amountSat: 60_000)
            try await notified(3, "the second payment's status")
            try await simnet.mine(count: 1)
            try await notified(4, "the confirmation's status")
            try await simnet.reorg(depth: 1)
            try await eventually("the reorg's status or none (the tx may confirm again at the same height)") {
                let history = try await client.call("blockchain.scripthash.get_history", [.string(scripthash)])
                let last = inbox.params(of: "blockchain.scripthash.subscribe").last?[1]
                let entries = (history.arrayValue ?? []).map {
                    ElectrumHash.Entry(txHash: $0["tx_hash"]?.stringValue ?? "", height: $0["height"]?.int ?? 0)
                }
                return last == (ElectrumHash.status(entries).map(JSONValue.string) ?? .null)
            }
        }
    }
}

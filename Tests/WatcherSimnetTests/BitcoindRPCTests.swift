import Foundation
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// The Bitcoin Core face's JSON-RPC over real HTTP: auth, envelopes (1.0, 2.0, batches), error mapping, and bodies
/// whose bytes parse back with WatcherBitcoin and hash to what the node advertises.
@Suite("Bitcoin Core JSON-RPC")
struct BitcoindRPCTests {
    static let configuration = SimnetConfiguration(seed: 42)

    @Test func basicAuthCookieAndWrongPassword() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simnet-cookie-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cookiePath = directory.appendingPathComponent(".cookie").path
        var configuration = Self.configuration
        configuration.rpcUser = "alice"
        configuration.rpcPassword = "s3cret"
        configuration.cookieFile = cookiePath
        try await Simnet.with(configuration) { simnet in
            let body = #"{"id":1,"method":"getblockcount","params":[]}"#
            let cookie = try String(contentsOfFile: cookiePath, encoding: .utf8)
            #expect(cookie.hasPrefix("__cookie__:") && cookie.count == "__cookie__:".count + 64)
            #expect(cookie == "__cookie__:\(simnet.rpcCookie)")
            let parts = cookie.split(separator: ":", maxSplits: 1).map(String.init)
            for auth in [NodeHarness.basic("alice", "s3cret"), NodeHarness.basic(parts[0], parts[1])] {
                let answer = try await NodeHarness.post(simnet, body, authorization: auth)
                #expect(answer.status == 200)
                #expect(try answer.json()["result"]?.int == (await simnet.tip()).height)
            }
            for auth in [NodeHarness.basic("alice", "wrong"), NodeHarness.defaultAuth, "Bearer x", nil] {
                let answer = try await NodeHarness.post(simnet, body, authorization: auth)
                #expect(answer.status == 401 && answer.body.isEmpty, "\(auth ?? "no auth")")
                #expect(answer.header("WWW-Authenticate") == #"Basic realm="jsonrpc""#)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: cookiePath), "the cookie is removed at shutdown")
    }

    @Test func cookieRotatesLikeARestartAndInitialBlockDownloadShows() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simnet-cookie-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Self.configuration
        configuration.cookieFile = directory.appendingPathComponent(".cookie").path
        let path = try #require(configuration.cookieFile)
        try await Simnet.with(configuration) { simnet in
            func auth() throws -> String {
                let parts = try String(contentsOfFile: path, encoding: .utf8).split(separator: ":", maxSplits: 1)
                return NodeHarness.basic(String(parts[0]), String(parts[1]))
            }
            let body = #"{"id":1,"method":"getblockchaininfo"}"#
            let old = try auth()
            #expect(try await NodeHarness.post(simnet, body, authorization: old).status == 200)
            let set = try await SimnetHarness.post(
                simnet,
                "/control/bitcoind",
                json: #"{"rotateCookie":true,"initialBlockDownload":true}"#
            )
            #expect(try set.status == 200 && set.json()["initialBlockDownload"] == .bool(true))
            let new = try auth()
            #expect(new != old)
            #expect(try await NodeHarness.post(simnet, body, authorization: old).status == 401)
            let answer = try await NodeHarness.post(simnet, body, authorization: new)
            let info = try #require(try answer.json()["result"])
            #expect(info["initialblockdownload"] == .bool(true))
            #expect((info["headers"]?.int ?? 0) > (info["blocks"]?.int ?? 0))
            await simnet.setNodeSettings(NodeSettings())
            #expect(try await NodeHarness.result(simnet, "getblockchaininfo")["initialblockdownload"] == .bool(false))
        }
    }

    @Test func theChainSwitchMakesTheNodeClaimAnotherNetwork() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            #expect(try await NodeHarness.result(simnet, "getblockchaininfo")["chain"] == .string("main"))
            let set = try await SimnetHarness.post(simnet, "/control/bitcoind", json: #"{"chain":"test"}"#)
            #expect(try set.status == 200 && set.json()["chain"] == .string("test"))
            #expect(try await NodeHarness.result(simnet, "getblockchaininfo")["chain"] == .string("test"))
            let bad = try await SimnetHarness.post(simnet, "/control/bitcoind", json: #"{"chain":"testnet3"}"#)
            #expect(bad.status == 400)
            #expect(try await NodeHarness.result(simnet, "getblockchaininfo")["chain"] == .string("test"))
        }
    }

    @Test func legacyAndVersion2EnvelopesAndBatches() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            let tip = await simnet.tip()
            let legacy = try await NodeHarness.post(simnet, #"{"id":"a","method":"getbestblockhash"}"#)
            #expect(legacy.status == 200 && legacy.text.hasSuffix("}\n"))
            #expect(try legacy.json().members?.map(\.key) == ["result", "error", "id"])
            #expect(try legacy.json()["result"]?.stringValue == tip.hash)

            let v2 = try await NodeHarness.post(simnet, #"{"jsonrpc":"2.0","id":7,"method":"getblockcount"}"#)
            #expect(try v2.status == 200 && v2.json().members?.map(\.key) == ["jsonrpc", "result", "id"])
            let v2Error = try await NodeHarness.post(simnet, #"{"jsonrpc":"2.0","id":8,"method":"nosuch"}"#)
            #expect(try v2Error.status == 200 && v2Error.json().members?.map(\.key) == ["jsonrpc", "error", "id"])
            #expect(try v2Error.json()["error"]?["code"]?.int == -32601)

            let notification = try await NodeHarness.post(simnet, #"{"jsonrpc":"2.0","method":"getblockcount"}"#)
            #expect(notification.status == 204 && notification.body.isEmpty)

            // Legacy errors carry their HTTP status: 404 for an unknown method, 500 for an RPC error.
            #expect(try await NodeHarness.call(simnet, "nosuch").0 == 404)
            #expect(try await NodeHarness.call(simnet, "getblockhash", "[99999999]").0 == 500)
            let parse = try await NodeHarness.post(simnet, "{not json")
            #expect(try parse.status == 500 && parse.json()["error"]?["code"]?.int == -32700)

            let batch = try await NodeHarness.post(
                simnet,
                #"[{"id":1,"method":"getblockcount"},{"jsonrpc":"2.0","id":2,"method":"getblockhash","params":[1]},"#
                    + #"{"jsonrpc":"2.0","method":"getblockcount"},{"id":3,"method":"getblockhash","params":{"height":\#(tip.height)}}]"#
            )
            #expect(batch.status == 200)
            let replies = try #require(try batch.json().arrayValue)
            #expect(replies.count == 3, "the notification gets no reply")
            #expect(replies[0]["result"]?.int == tip.height && replies[0]["id"]?.int == 1)
            #expect(replies[1]["error"]?["code"]?.int == -8 && replies[1]["jsonrpc"]?.stringValue == "2.0")
            #expect(replies[1]["result"] == nil)
            #expect(replies[2]["result"]?.stringValue == tip.hash && replies[2]["id"]?.int == 3)

            var get = try await SimnetHarness.get(simnet, "/")
            #expect(get.status == 405 && get.text == "JSONRPC server handles only POST requests")
            get = try await NodeHarness.post(simnet, "[]")
            #expect(try get.json()["error"]?["code"]?.int == -32600)
        }
    }

    @Test func errorMappingAndControlSwitches() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            let unknownHash = String(repeating: "ab", count: 32)
            #expect(try await NodeHarness.error(simnet, "getblockhash", "[1]")["code"]?.int == -8)
            #expect(try await NodeHarness.error(simnet, "getblockheader", #"["\#(unknownHash)"]"#)["code"]?.int == -5)
            #expect(
                try await NodeHarness.error(simnet, "getrawtransaction", #"["\#(unknownHash)"]"#)["code"]?.int == -5
            )
            #expect(try await NodeHarness.error(simnet, "getmempoolentry", #"["\#(unknownHash)"]"#)["code"]?.int == -5)
            #expect(try await NodeHarness.error(simnet, "getblock", #"["xyz"]"#)["code"]?.int == -8)
            #expect(try await NodeHarness.error(simnet, "getblockhash", #"["1"]"#)["code"]?.int == -3)
            #expect(try await NodeHarness.error(simnet, "getblockhash")["code"]?.int == -1)
            #expect(try await NodeHarness.error(simnet, "sendtoaddress")["code"]?.int == -32601)

            var set = try await SimnetHarness.post(simnet, "/control/bitcoind", json: #"{"warmup":true}"#)
            #expect(try set.status == 200 && set.json()["warmup"] == .bool(true))
            let warm = try await NodeHarness.error(simnet, "getblockchaininfo")
            #expect(warm["code"]?.int == -28 && warm["message"]?.stringValue == "Loading block index…")
            let restWarm = try await SimnetHarness.get(simnet, "/rest/chaininfo.json")
            #expect(restWarm.status == 503)
            set = try await SimnetHarness.post(
                simnet,
                "/control/bitcoind",
                json: #"{"warmup":false,"workQueueFull":true}"#
            )
            let full = try await NodeHarness.post(simnet, #"{"id":1,"method":"getblockcount"}"#)
            #expect(full.status == 503 && full.text == "Work queue depth exceeded")
            #expect(try await SimnetHarness.get(simnet, "/rest/chaininfo.json").status == 503)
            set = try await SimnetHarness.post(
                simnet,
                "/control/bitcoind",
                json: #"{"workQueueFull":false,"forbidden":["getblock"]}"#
            )
            #expect(try set.json()["forbidden"] == .array([.string("getblock")]))
            let tip = await simnet.tip()
            let forbidden = try await NodeHarness.post(
                simnet,
                #"{"id":1,"method":"getblock","params":["\#(tip.hash)"]}"#
            )
            #expect(forbidden.status == 403 && forbidden.body.isEmpty)
            let batch = try await NodeHarness.post(
                simnet,
                #"[{"id":1,"method":"getblockcount"},{"id":2,"method":"getblock","params":["\#(tip.hash)"]}]"#
            )
            #expect(batch.status == 403, "a batch with a forbidden method is refused whole")
            #expect(try await NodeHarness.call(simnet, "getblockcount").0 == 200)
            await simnet.setNodeSettings(NodeSettings())
            #expect(try await NodeHarness.call(simnet, "getblock", #"["\#(tip.hash)"]"#).0 == 200)
            #expect(try await SimnetHarness.post(simnet, "/control/bitcoind", json: #"{"warmup":3}"#).status == 400)

            let stats = try await SimnetHarness.get(simnet, "/control/stats").json()
            let node = try #require(stats["families"]?["bitcoind"])
            #expect(node["endpoints"]?["getblockcount"]?.int == 3)
            #expect(node["endpoints"]?["getblockhash"]?.int == 3)
            #expect(node["endpoints"]?["/rest/chaininfo"]?.int == 2)
        }
    }

    @Test func blocksAtEveryVerbosityAreRealBytes() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await simnet.mine(count: 2)
            let height = (await simnet.tip()).height - 1
            let hash = try #require(try await NodeHarness.result(simnet, "getblockhash", "[\(height)]").stringValue)

            let raw = try RawBlock(
                hex: try #require(try await NodeHarness.result(simnet, "getblock", #"["\#(hash)",0]"#).stringValue)
            )
            #expect(raw.hash.displayHex == hash && raw.hasValidMerkleRoot)
            #expect(raw.transactions.first?.isCoinbase == true)
            let headerHex = try await NodeHarness.result(simnet, "getblockheader", #"["\#(hash)",false]"#)
            let header = try RawBlockHeader(hex: try #require(headerHex.stringValue))
            #expect(header == raw.header && header.bits == 0x207f_ffff)

            let one = try await NodeHarness.result(simnet, "getblock", #"["\#(hash)"]"#)
            #expect(one["tx"]?.arrayValue?.compactMap(\.stringValue) == raw.txids.map(\.displayHex))
            #expect(one["merkleroot"]?.stringValue == raw.header.merkleRoot.displayHex)
            #expect(one["size"]?.int == raw.size && one["strippedsize"]?.int == raw.strippedSize)
            #expect(one["weight"]?.int == raw.weight && one["nTx"]?.int == raw.transactions.count)
            #expect(one["confirmations"]?.int == 2 && one["nextblockhash"] != nil)
            #expect(one["previousblockhash"]?.stringValue == raw.header.previousBlockHash.displayHex)

            let two = try await NodeHarness.result(simnet, "getblock", #"["\#(hash)",2]"#)
            let txs = try #require(two["tx"]?.arrayValue)
            #expect(txs.count == raw.transactions.count)
            for (index, tx) in txs.enumerated() {
                let parsed = try Transaction(hex: try #require(tx["hex"]?.stringValue))
                #expect(parsed.txid.displayHex == tx["txid"]?.stringValue)
                #expect(parsed.wtxid.displayHex == tx["hash"]?.stringValue)
                #expect(parsed == raw.transactions[index])
                #expect((tx["fee"] == nil) == (index == 0), "a fee on every transaction but the coinbase")
                #expect(tx["vin"]?[0]?["prevout"] == nil)
            }
            #expect(txs[0]["vin"]?[0]?["coinbase"] != nil)
            let three = try await NodeHarness.result(simnet, "getblock", #"["\#(hash)",3]"#)
            let prevout = try #require(three["tx"]?[1]?["vin"]?[0]?["prevout"])
            #expect(prevout.members?.map(\.key) == ["generated", "height", "value", "scriptPubKey"])
            // Amounts are BTC with exactly 8 decimals, written from integer satoshi.
            let text = try await NodeHarness.post(simnet, #"{"id":1,"method":"getblock","params":["\#(hash)",3]}"#).text
            let amounts = text.matches(of: /"(value|fee)":(-?[0-9]+\.?[0-9]*)/).map { String($0.output.2) }
            #expect(!amounts.isEmpty && amounts.allSatisfy { $0.wholeMatch(of: /[0-9]+\.[0-9]{8}/) != nil })
        }
    }

    @Test func transactionsMempoolAndUTXOs() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            let payee = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
            let txid = try await simnet.pay(to: payee, amountSat: 123_456)
            let hex = try #require(
                try await NodeHarness.result(simnet, "getrawtransaction", #"["\#(txid)"]"#).stringValue
            )
            let tx = try Transaction(hex: hex)
            #expect(tx.txid.displayHex == txid)
            let verbose = try await NodeHarness.result(simnet, "getrawtransaction", #"["\#(txid)",true]"#)
            #expect(verbose["blockhash"] == nil && verbose["vout"]?[0]?["value"] == .number("0.00123456"))
            #expect(verbose["vout"]?[0]?["scriptPubKey"]?["address"]?.stringValue == payee)

            let mempool = try await NodeHarness.result(simnet, "getrawmempool")
            #expect(mempool.arrayValue?.contains(.string(txid)) == true)
            let entry = try await NodeHarness.result(simnet, "getmempoolentry", #"["\#(txid)"]"#)
            #expect(entry["vsize"]?.int == tx.vsize && entry["wtxid"]?.stringValue == tx.wtxid.displayHex)
            #expect(entry["bip125-replaceable"] == .bool(true))
            let verboseMempool = try await NodeHarness.result(simnet, "getrawmempool", "[true]")
            #expect(verboseMempool[txid]?["fees"]?["base"] != nil)
            let sequenced = try await NodeHarness.result(simnet, "getrawmempool", "[false,true]")
            #expect(sequenced["txids"] == mempool && sequenced["mempool_sequence"]?.int != nil)

            let spent = tx.inputs[0].previousOutput
            let spending = try await NodeHarness.result(
                simnet,
                "gettxspendingprevout",
                #"[[{"txid":"\#(spent.txid.displayHex)","vout":\#(spent.vout)}]]"#
            )
            #expect(spending[0]?["spendingtxid"]?.stringValue == txid)
            // The spent output is in the UTXO set (a mempool spend does not remove it) but not with the mempool.
            let withoutMempool = try await NodeHarness.result(
                simnet,
                "gettxout",
                #"["\#(spent.txid.displayHex)",\#(spent.vout),false]"#
            )
            #expect(withoutMempool["coinbase"] != nil && withoutMempool["confirmations"]?.int ?? 0 >= 1)
            #expect(
                try await NodeHarness.result(simnet, "gettxout", #"["\#(spent.txid.displayHex)",\#(spent.vout)]"#)
                    == .null
            )
            let fresh = try await NodeHarness.result(simnet, "gettxout", #"["\#(txid)",0]"#)
            #expect(fresh["confirmations"]?.int == 0 && fresh["value"] == .number("0.00123456"))

            let blocks = try await simnet.mine(count: 1)
            let block = try #require(blocks.first)
            let confirmed = try await NodeHarness.result(
                simnet,
                "getrawtransaction",
                #"["\#(txid)",1,"\#(block.hash)"]"#
            )
            #expect(confirmed["in_active_chain"] == .bool(true) && confirmed["confirmations"]?.int == 1)
            #expect(confirmed["blockhash"]?.stringValue == block.hash)
            let withFee = try await NodeHarness.result(simnet, "getrawtransaction", #"["\#(txid)",2]"#)
            #expect(withFee["fee"] != nil && withFee["vin"]?[0]?["prevout"]?["value"] != nil)

            // scantxoutset over addr() finds exactly the confirmed balance of every funded address.
            let truths = await simnet.addresses()
            let scan = try await NodeHarness.result(
                simnet,
                "scantxoutset",
                #"["start",["addr(\#(payee))",{"desc":"addr(\#(truths[0].address))"}]]"#
            )
            let payeeTruth = try #require(truths.first { $0.address == payee })
            let expected = payeeTruth.confirmedBalanceSat + truths[0].confirmedBalanceSat
            #expect(scan["success"] == .bool(true) && scan["bestblock"]?.stringValue == block.hash)
            #expect(scan["total_amount"] == .number(Self.btc(expected)))
            #expect(scan["unspents"]?.arrayValue?.contains { $0["txid"]?.stringValue == txid } == true)
        }
    }

    @Test func staleBlocksAfterAReorgAndTheTxindexSwitch() async throws {
        var configuration = Self.configuration
        configuration.txindex = false
        try await Simnet.with(configuration) { simnet in
            let old = await simnet.tip()
            try await simnet.reorg(depth: 1)
            let header = try await NodeHarness.result(simnet, "getblockheader", #"["\#(old.hash)"]"#)
            #expect(header["confirmations"]?.int == -1 && header["nextblockhash"] == nil)
            let block = try await NodeHarness.result(simnet, "getblock", #"["\#(old.hash)",0]"#)
            #expect(try RawBlock(hex: try #require(block.stringValue)).hash.displayHex == old.hash)
            let chain = await simnet.chain()
            let confirmed = try #require(chain.block(height: chain.tip.height - 1)?.txids[1])
            let noIndex = try await NodeHarness.error(simnet, "getrawtransaction", #"["\#(confirmed)"]"#)
            #expect(noIndex["message"]?.stringValue?.contains("Use -txindex or provide a block hash") == true)
        }
    }

    static func btc(_ sat: Int64) -> String {
        let fraction = String(sat % 100_000_000)
        return "\(sat / 100_000_000)." + String(repeating: "0", count: 8 - fraction.count) + fraction
    }
}

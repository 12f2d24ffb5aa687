import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Real transactions parse to exactly the fields their node printed, and serialize back to the same bytes.
@Suite struct TransactionVectorTests {
    /// Verbose `getrawtransaction` objects that carry their own `hex`.
    static let verboseFixtures = [
        "bitcoind/getrawtransaction-verbose-main-52309405-core0141-legacy.json",
        "bitcoind/getrawtransaction-verbose-regtest-80b19848-mempool.json",
        "bitcoind/getrawtransaction-verbose-testnet-08b4283f-mixed-inputs.json",
        "bitcoind/getrawtransaction-verbose-testnet-e56da664-confirmed.json",
        "bitcoind/getrawtransaction-verbose-testnet-95d51e81-mempool-lbtc.json",
        "bitcoind/getrawtransaction-verbose-testnet-ed752673-confirmed-lbtc.json",
        "bitcoind/getrawtransaction-verbose-testnet-f68de52d-1conf-lbtc.json",
        // A Bitcoin Cash daemon's output: the same serialization, amounts printed without trailing zeros.
        "electrum/transaction-get-verbose-36a3692a-bch-daemon.json",
    ]

    @Test("every field of the verbose JSON", arguments: verboseFixtures)
    func verboseFields(_ path: String) throws {
        let json = try Fixtures.json(path)
        let hex = try #require(json["hex"]?.stringValue)
        let tx = try Transaction(hex: hex)

        #expect(tx.txid.displayHex == json["txid"]?.stringValue)
        #expect(tx.wtxid.displayHex == json["hash"]?.stringValue)
        #expect(tx.size == json["size"]?.integer.map(Int.init))
        if let vsize = json["vsize"]?.integer { #expect(tx.vsize == Int(vsize)) }
        // Legacy outputs have no `weight`; without witness it is four times the size.
        let weight = json["weight"]?.integer.map(Int.init) ?? (tx.hasWitness ? nil : tx.size * 4)
        #expect(tx.weight == weight)
        #expect(tx.version == json["version"]?.integer.map(Int32.init))
        #expect(tx.lockTime == json["locktime"]?.integer.map(UInt32.init))
        #expect(!tx.isCoinbase)

        let vin = try #require(json["vin"]?.arrayValue)
        try #require(tx.inputs.count == vin.count)
        for (input, expected) in zip(tx.inputs, vin) {
            #expect(input.previousOutput.txid.displayHex == expected["txid"]?.stringValue)
            #expect(input.previousOutput.vout == expected["vout"]?.integer.map(UInt32.init))
            #expect(Hex.encode(input.scriptSig) == expected["scriptSig"]?["hex"]?.stringValue)
            #expect(input.sequence == expected["sequence"]?.integer.map(UInt32.init))
            let witness = expected["txinwitness"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(input.witness.map { Hex.encode($0) } == witness)
        }

        let vout = try #require(json["vout"]?.arrayValue)
        try #require(tx.outputs.count == vout.count)
        for (index, (output, expected)) in zip(tx.outputs, vout).enumerated() {
            #expect(expected["n"]?.integer == Int64(index))
            let valueText = try #require(expected["value"]?.numberText)
            #expect(output.value == satoshis(fromBTC: valueText), "value \(valueText)")
            #expect(Hex.encode(output.scriptPubKey) == expected["scriptPubKey"]?["hex"]?.stringValue)
        }

        #expect(tx.hex() == hex.lowercased())
        #expect(try Transaction(bytes: tx.serialized()) == tx)
    }

    @Test("the non-verbose body equals the verbose hex and parses to the same txid")
    func nonVerboseBody() throws {
        let raw = try Fixtures.text("bitcoind/getrawtransaction-main-52309405-core0141-verbose-false.txt")
        let json = try Fixtures.json("bitcoind/getrawtransaction-verbose-main-52309405-core0141-legacy.json")
        #expect(raw == json["hex"]?.stringValue)
        let tx = try Transaction(hex: raw)
        #expect(tx.txid.displayHex == "52309405287e737cf412fc42883d65a392ab950869fae80b2a5f1e33326aca46")
        #expect(tx.serialized() == Hex.decode(raw))
        #expect(tx.totalOutputValue == 6_990_000)
    }

    @Test("Electrum's blockchain.transaction.get result hashes to its txid")
    func electrumRaw() throws {
        let raw = try #require(try Fixtures.json("electrum/transaction-get-raw-main-36a3692a.json").stringValue)
        let tx = try Transaction(hex: raw)
        #expect(tx.txid.displayHex == "36a3692a41a8ac60b73f7f41ee23f5c917413e5b2fad9e44b34865bd0d601a3d")
        #expect(tx.outputs.map(\.value) == [8_566_470, 13_609_040])
        #expect(tx.hex() == raw)
    }

    @Test("each transaction of the Electrum status session hashes to the txid it was asked for")
    func electrumSession() throws {
        let lines = try Fixtures.jsonLines("electrum/session-status-example-regtest-transcribed.jsonl")
        var asked: [String: String] = [:]
        var checked = 0
        for line in lines {
            guard let id = line["id"]?.numberText else { continue }
            if line["method"]?.stringValue == "blockchain.transaction.get" {
                asked[id] = line["params"]?.arrayValue?.first?.stringValue
            } else if let txid = asked[id], let raw = line["result"]?.stringValue {
                let tx = try Transaction(hex: raw)
                #expect(tx.txid.displayHex == txid)
                #expect(tx.hex() == raw)
                checked += 1
            }
        }
        #expect(checked == 6)
    }

    @Test("ZMQ rawtx bodies (upper-case hex) parse, keep their size and hash to the derived txids")
    func zmqBodies() throws {
        let frames = try #require(
            try Fixtures.json("bitcoind/zmq-rawtx-capture-testnet-lbtc.json")["frames"]?.arrayValue
        )
        #expect(frames.count == 4)
        var previous: Hash256?
        for frame in frames {
            let body = try #require(frame["body_hex_as_printed"]?.stringValue)
            let tx = try Transaction(hex: body)
            #expect(tx.size == frame["body_size"]?.integer.map(Int.init))
            #expect(tx.txid.displayHex == frame["derived_txid"]?.stringValue)
            #expect(tx.hex() == body.lowercased())
            // Each spends output 0 of the one before (a faucet chain).
            if let previous { #expect(tx.inputs.first?.previousOutput == OutPoint(txid: previous, vout: 0)) }
            previous = tx.txid
        }
    }
}

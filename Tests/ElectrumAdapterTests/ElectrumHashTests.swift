import Testing
import WatcherBitcoin
import WatcherJSON

/// The script hash and status hash against the protocol's vectors (reference nodes.md §2.3, status-hash-vector).
@Suite("Electrum script hashes and statuses")
struct ElectrumHashTests {
    @Test("the protocol docs' genesis address hashes to its documented scripthash")
    func genesisAddress() throws {
        let script = try #require(BitcoinAddress.scriptPubKey(fromAddress: "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"))
        #expect(
            ElectrumHash.scripthash(scriptPubKey: script)
                == "8b01df4e368ea28f8dc0423bcf7a4923e3a12d307c875e47a0cfbf90b5c39161"
        )
    }

    @Test("the regtest vector: address → scriptPubKey → scripthash, history → status")
    func regtestVector() throws {
        let vector = try ElectrumHarness.fixtureJSON("status-hash-vector-regtest.json")
        let address = try #require(vector["address"]?.stringValue)
        let script = try #require(BitcoinAddress.scriptPubKey(fromAddress: address))
        #expect(Hex.encode(script) == vector["scriptPubKey"]?.stringValue)
        #expect(ElectrumHash.scripthash(scriptPubKey: script) == vector["scripthash"]?.stringValue)
        let history = try #require(vector["history_in_status_order"]?.arrayValue).map { entry in
            ElectrumHash.Entry(
                txHash: entry["tx_hash"]?.stringValue ?? "",
                height: Int(entry["height"].flatMap { if case .number(let n) = $0 { n } else { nil } } ?? "") ?? 99
            )
        }
        #expect(ElectrumHash.status(history) == vector["status"]?.stringValue)
        // Mempool entries in any order come back in status order.
        let confirmed = history.filter { $0.height > 0 }
        let mempool = history.filter { $0.height <= 0 }
        #expect(ElectrumHash.statusOrder(confirmed: confirmed, mempool: mempool.reversed()) == history)
        #expect(ElectrumHash.status([]) == nil)
    }

    @Test("the transcribed session: the history's status is what the subscription answered")
    func sessionStatus() throws {
        let lines = try ElectrumHarness.fixtureLines("session-status-example-regtest-transcribed.jsonl")
        let subscribed = try #require(lines.first { $0["id"] == .number("15") && $0["result"] != nil })
        let history = try #require(lines.first { $0["id"] == .number("16") && $0["result"] != nil })
        let entries = try #require(history["result"]?.arrayValue).map { entry in
            ElectrumHash.Entry(
                txHash: entry["tx_hash"]?.stringValue ?? "",
                height: Int(entry["height"].flatMap { if case .number(let n) = $0 { n } else { nil } } ?? "") ?? 99
            )
        }
        #expect(entries.count == 6)
        #expect(ElectrumHash.status(entries) == subscribed["result"]?.stringValue)
    }
}

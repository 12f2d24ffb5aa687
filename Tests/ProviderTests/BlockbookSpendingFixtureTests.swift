import BlockbookAdapter
import Foundation
import Testing
import WatcherCore
import WatcherFixtures
import WatcherHTTP
import WatcherJSON
import WatcherTesting

/// What replaced a transaction, from real Blockbook bodies: the outputs a history's transactions spend (`vin` txid
/// and `vout`, omitted when 0), and who spends a transaction's outputs (`spentTxId` on extended-index servers,
/// `spent: true` alone on the others).
@Suite("Blockbook spending fields from fixtures")
struct BlockbookSpendingFixtureTests {
    static let decoder = BlockbookDecoder(provider: "bb")

    static func node(_ path: String) throws -> ProviderHTTP.JSONNode {
        ProviderHTTP.JSONNode(try JSONValue.parse(RecordedFixture.bytes(path)), path: "$", provider: "bb")
    }

    @Test func anExtendedIndexNamesEachSpender() throws {
        let txs = try Self.node("blockbook/ws-getBlock-response.json").required("data").required("txs").array()
        // effd9ef5…: every output spent; 00b2c060…: output 1 spent, 0 and 2 not; output 7 does not exist.
        #expect(
            try Self.decoder.spends(txs[1], outputs: [0, 1, 2])
                == [
                    0: .spent(by: "7c3be24063f268aaa1ed81b64776798f56088757641a34fb156c4f51ed2e9d25"),
                    1: .spent(by: "3d90d15ed026dc45e19ffb52875ed18fa9e8012ad123d7f7212176e2b0ebdb71"),
                    2: .spent(by: "05e2e48aeabdd9b75def7b48d756ba304713c2aba7b522bf9dbc893fc4231b07"),
                ]
        )
        #expect(
            try Self.decoder.spends(txs[0], outputs: [0, 1, 2, 7])
                == [
                    0: .unspent, 1: .spent(by: "7c3be24063f268aaa1ed81b64776798f56088757641a34fb156c4f51ed2e9d25"),
                    2: .unspent,
                ]
        )
    }

    @Test func aStandardIndexSaysOnlyThatAnOutputIsSpentAndTheHistoryGivesTheOutputsSpent() throws {
        let address = "mv9uLThosiEnGRbVPS7Vhyw6VssbVRsiAw"
        let body = try Self.node("blockbook/address-txs.json")
        let first = try body.required("transactions").array()[0]
        #expect(try Self.decoder.spends(first, outputs: [0, 1]) == [0: .spent(by: nil), 1: .unspent])
        let history = try Self.decoder.history(body, address: address).transactions
        #expect(
            history.first?.facts?.outpoints == [
                TxOutpoint(txid: "effd9ef509383d536b1c8af5bf434c8efbf521a4f2befd4022bbd68694b4ac75", vout: 0),
                TxOutpoint(txid: "00b2c06055e5e90e9c82bd4181fde310104391a7fa4f289b1704e5d90caa3840", vout: 1),
            ]
        )
    }

    @Test func aTransactionBlockbookDoesNotKnowLeavesEveryOutputWithoutItsParent() async throws {
        let txid = "1232e48aeabdd9b75def7b48d756ba304713c2aba7b522bf9dbc893fc4231b07"
        let confirmed = "8c1e3dec662d1f2a5e322ccef5eca263f98eb16723c6f990be0c88c1db113fb1"
        let answers = [
            "/api/v2/tx/\(txid)?spending=true": try Fixture.answer("blockbook/error-tx-not-found.json", status: 400),
            "/api/v2/tx/\(confirmed)?spending=true": try Fixture.answer("blockbook/tx.json"),
        ]
        try await FixtureServer.with(answers, adapter: BlockbookFixtureTests.blockbook) { bb in
            let gone = try await bb.spends(of: txid, outputs: [0, 3])
            #expect(gone == [0: .parentMissing, 3: .parentMissing])
            // The recorded transaction's outputs carry no `spent`: nothing spends them.
            let there = try await bb.spends(of: confirmed, outputs: [0, 1])
            #expect(there == [0: .unspent, 1: .unspent])
            // Another transaction's body for the one asked is refused.
            let error = await #expect(throws: ProviderError.self) {
                try await bb.spends(of: String(repeating: "0", count: 64), outputs: [0])
            }
            #expect(error != nil)
        }
    }
}

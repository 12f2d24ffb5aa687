import BlockbookAdapter
import Foundation
import RawAddrAdapter
import Testing
import WatcherCore
import WatcherTesting

/// The zero-conf facts (fee, vsize, nSequence, parents) read from real recorded histories.
@Suite("Zero-conf facts from fixtures")
struct ZeroConfFactsFixtureTests {
    /// Litecoin's Blockbook omits `vsize`, and a `sequence` of 0 (as every empty field): 0 signals RBF.
    @Test func blockbookHistoryCarriesFeesSequencesAndParents() async throws {
        let address = "ltc1qpm594ntjq6ayqjngf6t9td2dxtey9d7985eept"
        let answers = ["/api/v2/address/\(address)": try Fixture.answer("blockbook/address-txs-ltc-mainnet.json")]
        try await FixtureServer.with(answers, adapter: BlockbookFixtureTests.blockbook) { bb in
            let history = try await bb.addressTransactions(address, limit: 100, after: nil)
            let first = try #require(history.first?.facts)
            #expect(first.feeSat == 452)
            #expect(first.vsize == nil)
            #expect(first.feeRate == nil)
            #expect(first.sequences == [0])
            #expect(first.signalsRBF == true)
            #expect(first.parents == ["674092ed2b166f0f21ba6287b1df23abb9612e140e77bd52f2885312c69bf867"])
            #expect(first.unconfirmedInputs == nil)
            #expect(history[1].facts?.sequences == [0xffff_fffa])
        }
    }

    /// rawaddr gives `fee`, `weight` and every input's `sequence`, but parents only by `tx_index`.
    @Test func rawaddrHistoryCarriesFeeWeightAndSequences() async throws {
        let address = "1PYexakYRvWnzYa21kPWqbXgwPvLjnttMp"
        let answers = ["/rawaddr/\(address)": try Fixture.answer("rawaddr/rawaddr_p2pkh_2tx_zero_balance.json")]
        try await FixtureServer.with(answers) { server in
            let bci = RawAddrProvider(id: "bci", baseURL: server.baseURL, http: server.http)
            let history = try await bci.addressTransactions(address, limit: 10, after: nil)
            let facts = try #require(history.first?.facts)
            #expect(facts.feeSat == 500_000)
            #expect(facts.vsize == 798)
            #expect(facts.feeRate == "626.57")
            #expect(facts.sequences == [0xffff_ffff, 0xffff_ffff, 0xffff_ffff, 0xffff_ffff])
            #expect(facts.signalsRBF == false)
            #expect(facts.parents == nil)
            #expect(history[1].facts?.vsize == 258)
        }
    }
}

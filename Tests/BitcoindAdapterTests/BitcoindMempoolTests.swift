import Foundation
import Testing
import WatcherCore
import WatcherSimnet
import WatcherTesting

@testable import BitcoindAdapter

/// The `mempool` capability against the simnet's Core face over loopback: the list, and the new transactions with
/// every input valued (confirmed coins from the UTXO set, unconfirmed ones from their mempool parent, in the same
/// batch or not) and the facts, checked against the simnet's truth.
@Suite struct BitcoindMempoolTests {
    static let payee = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
    static let other = "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3"

    @Test func transactionsComeWithTheirInputsValuedAndTheirFacts() async throws {
        try await Simnet.with(SimnetConfiguration(seed: 42)) { simnet in
            try await FixtureServer.withTransport { http in
                let provider = BitcoindProvider(
                    id: "node",
                    baseURL: simnet.baseURL,
                    http: http,
                    auth: .password(user: "watcher", password: "watcher")
                )
                #expect(provider.capabilities.contains(.mempool))
                let parent = try await simnet.pay(to: Self.payee, amountSat: 50_000, rbf: false)
                // Spends the payee's unconfirmed coin.
                let child = try await simnet.pay(to: Self.other, amountSat: 20_000, from: Self.payee)
                let model = await simnet.chain()
                #expect(Set(try await provider.mempoolTxids()) == Set(model.mempool))
                let together = try await provider.mempoolTransactions([parent, child])
                let alone = try await provider.mempoolTransactions([child])
                #expect(together.map(\.transaction.txid) == [parent, child])
                for read in together + alone {
                    let truth = try #require(model.transaction(read.transaction.txid))
                    #expect(read.transaction.blockHeight == nil && read.transaction.blockHash == nil)
                    #expect(read.transaction.inputs.map(\.address) == truth.inputs.map(\.address))
                    #expect(read.transaction.inputs.map(\.valueSat) == truth.inputs.map(\.value))
                    #expect(read.transaction.feeSat == truth.fee)
                    #expect(read.facts.feeSat == truth.fee)
                    #expect(read.facts.parents == truth.inputs.map(\.prevout.txid))
                    #expect(read.facts.signalsRBF == truth.signalsRBF)
                    #expect(read.facts.vsize != nil)
                    let unconfirmed = truth.inputs.filter { model.mempool.contains($0.prevout.txid) }.count
                    #expect(read.facts.unconfirmedInputs == unconfirmed)
                }
                #expect(together[1].facts.unconfirmedInputs ?? 0 >= 1, "the child spends its unconfirmed parent")
                #expect(together[1].transaction.delta(for: Self.payee) < 0, "the payee's spend is seen")
                // Gone from the mempool (mined) between the list and the read: left out, not an error.
                _ = try await simnet.mine(count: 1)
                #expect(try await provider.mempoolTransactions([parent]).isEmpty)
            }
        }
    }
}

import Testing
import WatcherCore
import WatcherSimnet
import WatcherTesting

@testable import ElectrumAdapter

/// `confirmation(of:inBlock:height:)` against the simnet's Electrum face: a transaction is proved in its block by its
/// merkle branch and the block's header; another block's hash or another height is not found.
@Suite("electrum confirmation by merkle proof")
struct ElectrumProofTests {
    @Test("a mined payment is proved in its block; a wrong hash or height is not found")
    func proof() async throws {
        var configuration = SimnetConfiguration(seed: 7, txsPerBlock: 5)
        configuration.electrumPort = 0
        try await Simnet.with(configuration) { simnet in
            let provider = try ElectrumContractTests.provider(simnet)
            let txid = try await simnet.pay(to: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", amountSat: 30_000)
            let block = try #require(try await simnet.mine(count: 1).first)
            let next = try #require(try await simnet.mine(count: 1).first)
            let proved = try await provider.confirmation(of: txid, inBlock: block.hash, height: block.height)
            #expect(proved.txid == txid)
            #expect(proved.blockHash == block.hash)
            #expect(proved.blockHeight == block.height)
            #expect(proved.outputs.contains { $0.address == "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" })
            // The claimed hash is not the server's block at that height.
            await #expect {
                _ = try await provider.confirmation(of: txid, inBlock: next.hash, height: block.height)
            } throws: { error in
                guard case .notFound = error as? ProviderError else { return false }
                return true
            }
            // The server's block at the claimed height does not hold the transaction.
            await #expect {
                _ = try await provider.confirmation(of: txid, inBlock: next.hash, height: next.height)
            } throws: { error in
                guard case .notFound = error as? ProviderError else { return false }
                return true
            }
        }
    }
}

import Foundation
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTestSupport
import WatcherTesting

/// A real ElectrumX (PyPI's `e-x`, pinned in scripts/oracle/requirements.txt) indexing a regtest simnet through the
/// simnet's Bitcoin Core face: it checks the daemon's version (31.0 or later), its indexes (`getindexinfo`) and the
/// genesis block, then parses every block it is served. What it then answers is compared with the simnet's truth.
@Suite("ElectrumX indexes the regtest simnet")
struct ElectrumXIndexTests {
    @Test("to its tip, with the funded addresses' balances, then follows a reorg of depth 1")
    func indexesToTheTipAndFollowsAReorg() async throws {
        let python = try await OracleHarness.python()
        let seed = UInt64.random(in: 0...UInt64.max)
        var configuration = SimnetConfiguration(chain: ChainParameters(seed: seed, network: .regtest))
        configuration.electrumPort = nil
        try await Simnet.with(configuration) { simnet in
            let electrumx = try await OracleHarness.ElectrumX(python: python, simnet: simnet)
            do {
                let log: @Sendable () -> String = { electrumx.process.output }
                try await OracleHarness.waitForTip(python, port: electrumx.port, await simnet.tip(), log: log)
                #expect(log().contains("verified genesis block with hash 0f9188f1"), "seed \(seed)")

                // What ElectrumX read from the blocks agrees with the simnet's ledger, address by address.
                let chain = await simnet.chain()
                let truths = chain.truths()
                let scripts = try truths.map { try #require(chain.address($0.address)).scriptHex }
                let rows = try await OracleHarness.query(python, port: electrumx.port, ["balances"] + scripts)
                for (index, truth) in truths.enumerated() {
                    #expect(
                        rows[index]?["confirmed"]?.oracleInteger == truth.confirmedBalanceSat,
                        "\(truth.address) seed \(seed)"
                    )
                    #expect(
                        rows[index]?["txs"]?.oracleInteger == Int64(truth.confirmedTxCount + truth.unconfirmedTxCount),
                        "\(truth.address)"
                    )
                }

                // A block, then a competing one in its place: ElectrumX must take the new branch.
                _ = try await simnet.mine(count: 1)
                try await OracleHarness.waitForTip(python, port: electrumx.port, await simnet.tip(), log: log)
                let before = await simnet.tip()
                let replaced = try await simnet.reorg(depth: 1)
                let newTip = await simnet.tip()
                #expect(replaced.map(\.height) == [before.height] && newTip.height == before.height + 1)
                try await OracleHarness.waitForTip(python, port: electrumx.port, newTip, log: log)
                #expect(log().contains("chain reorg detected"), "\(log())")
                #expect(!log().contains("Traceback"), "\(log())")
            } catch {
                Issue.record("seed \(seed), ElectrumX's log:\n\(electrumx.process.output)")
                await electrumx.stop()
                throw error
            }
            await electrumx.stop()
        }
    }
}

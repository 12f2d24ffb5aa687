import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// The same seed gives the same chain, over HTTP and in the model; different seeds differ; request
/// traffic (including injected faults) never changes the chain.
@Suite("Determinism")
struct DeterminismTests {
    /// Mines, pays and reorgs the same way on a simnet, then returns every block body and the truths.
    private func fingerprint(seed: UInt64, withFaultTraffic: Bool = false) async throws -> [String] {
        try await Simnet.with(SimnetConfiguration(seed: seed)) { simnet in
            if withFaultTraffic {
                await simnet.setFaults(
                    family: .blockbook,
                    FaultConfiguration(rate: 0.5, kinds: [.serverError, .wrongShape])
                )
                for _ in 0..<20 { _ = try await SimnetHarness.get(simnet, "/api/v2/block-index/") }
            }
            try await simnet.mine(count: 3)
            let target = try #require(await simnet.addresses().last).address
            try await simnet.pay(to: target, amountSat: 123_456)
            try await simnet.reorg(depth: 2)
            try await simnet.mine(count: 1)
            await simnet.setFaults(family: .blockbook, nil)
            let tip = await simnet.tip()
            var bodies: [String] = []
            for height in 800_000...tip.height {
                bodies.append(try await SimnetHarness.get(simnet, "/api/v2/block/\(height)").text)
            }
            bodies.append(try await SimnetHarness.get(simnet, "/control/addresses").text)
            bodies.append(try await SimnetHarness.get(simnet, "/api/v2/address/\(target)?details=txs").text)
            return bodies
        }
    }

    @Test func sameSeedSameChainOverHTTP() async throws {
        let first = try await fingerprint(seed: 7)
        let second = try await fingerprint(seed: 7)
        #expect(first.count == 12)
        #expect(first == second)
    }

    @Test func differentSeedsDiffer() async throws {
        let first = try await fingerprint(seed: 7)
        let other = try await fingerprint(seed: 8)
        #expect(first != other)
    }

    @Test func faultTrafficDoesNotChangeTheChain() async throws {
        let quiet = try await fingerprint(seed: 11)
        let noisy = try await fingerprint(seed: 11, withFaultTraffic: true)
        #expect(quiet == noisy)
    }

    @Test func modelIsAPureFunctionOfSeedAndOperations() throws {
        func build() throws -> ChainModel {
            var chain = ChainModel(parameters: ChainParameters(seed: 99, txsPerBlock: 30))
            _ = try chain.mine(count: 4)
            let target = try SimAddressParser.decode("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")
            _ = try chain.pay(to: target, amountSat: 5_000)
            _ = try chain.reorg(depth: 3)
            _ = try chain.mine(count: 1)
            return chain
        }
        let first = try build()
        let second = try build()
        #expect(first.blocks == second.blocks)
        #expect(first.mempool == second.mempool)
        #expect(first.truths() == second.truths())
        #expect(first.blocks.first?.height == 800_000)
    }

    /// The Bitcoin Core face's raw blocks at every height, and its mempool, after mining, a payment and a reorg.
    private func rawChain(seed: UInt64) async throws -> [String] {
        try await Simnet.with(SimnetConfiguration(seed: seed)) { simnet in
            try await simnet.mine(count: 2)
            let target = try #require(await simnet.addresses().last).address
            try await simnet.pay(to: target, amountSat: 50_000)
            try await simnet.reorg(depth: 1)
            let tip = await simnet.tip()
            var blocks: [String] = []
            for height in 800_000...tip.height {
                let hash = try await NodeHarness.result(simnet, "getblockhash", "[\(height)]").stringValue ?? ""
                blocks.append(try await NodeHarness.result(simnet, "getblock", #"["\#(hash)",0]"#).stringValue ?? "")
            }
            blocks.append(try await NodeHarness.result(simnet, "getrawmempool").serialized())
            return blocks
        }
    }

    @Test func sameSeedSameRawBlocks() async throws {
        let first = try await rawChain(seed: 5)
        #expect(first.count == 9 && first.allSatisfy { !$0.isEmpty })
        #expect(try await rawChain(seed: 5) == first)
        #expect(try await rawChain(seed: 6) != first)
    }
}

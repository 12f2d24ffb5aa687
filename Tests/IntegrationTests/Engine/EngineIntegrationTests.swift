import AsyncHTTPClient
import Foundation
import Logging
import ServiceLifecycle
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

@testable import WatcherApp

/// The engine as `watcher run` wires it (real adapters, scheduler, LMDB store) against the simnet. A wall-clock suite
/// (Makefile `WALL_CLOCK_AGREE`): slow answers are told from normal ones by a 1 s request timeout, which ordinary
/// answers exceed when the parallel suites take the CPU.
@Suite(.serialized)
struct EngineIntegrationTests {

    static func config(baseURL: String, data: String, addresses: [String], every: String = "1s", timeout: String = "1s")
        throws -> WatcherConfig
    {
        let list = addresses.map { "\"\($0)\"" }.joined(separator: ", ")
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [
               {"id": "bb", "type": "blockbook", "options": {"url": "\(baseURL)", "timeout": "\(timeout)"},
                "rateLimit": {"requests": 6000, "per": "1m", "burst": 100, "concurrency": 4}}
             ],
             "watches": [
               {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "\(every)"},
               {"id": "wallet", "type": "address", "providers": ["bb"], "every": "\(every)", "addresses": [\(list)]}
             ],
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    @Test func storedBalancesConvergeUnderThirtyPercentFaults() async throws {
        let configuration = SimnetConfiguration(
            chain: ChainParameters(seed: 11, txsPerBlock: 20, fundedAddressCount: 60)
        )
        try await Harness.withData(configuration) { simnet, client, data in
            let followed = Array(await simnet.addresses().filter(\.funded).prefix(10).map(\.address))
            let config = try Self.config(baseURL: simnet.baseURL, data: data, addresses: followed)
            await simnet.setFaults(family: .blockbook, .thirtyPercentMixed)
            try await EngineHarness.running(config, client: client) { store in
                // Traffic while the faults go on: payments to half the addresses, blocks on top.
                for (index, address) in followed.enumerated() where index % 2 == 0 {
                    _ = try await simnet.pay(to: address, amountSat: Int64(10_000 * (index + 1)))
                }
                _ = try await simnet.mine(count: 2)
                try await eventually(timeout: .seconds(90), "stored balances to match the simnet's truth") {
                    let truths = Dictionary(await simnet.addresses().map { ($0.address, $0) }) { a, _ in a }
                    let states = try store.read { try $0.addressStates(chain: "btc") }
                    let matched = states.filter { state in
                        guard let truth = truths[state.address], let summary = state.summary else { return false }
                        return summary.balanceSat == truth.confirmedBalanceSat
                            && summary.unconfirmedBalanceSat == truth.unconfirmedBalanceSat
                            && summary.txCount == truth.confirmedTxCount
                    }
                    return matched.count == followed.count
                }
            }
            let faults = await simnet.stats().families[.blockbook]?.faults ?? 0
            #expect(faults > 10, "only \(faults) faults were injected")
        }
    }
}

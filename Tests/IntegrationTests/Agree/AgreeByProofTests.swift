import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// `agree` with verifying providers that cannot look a transaction up by txid alone: a `bitcoind` without `-txindex`
/// (asked `getrawtransaction` with the claimed block's hash) and an Electrum server (asked `get_merkle` and the
/// block's header, an SPV check). One simnet serves the three faces; the Blockbook face is in charge.
@Suite(.serialized)
struct AgreeByProofTests {
    static var configuration: SimnetConfiguration {
        var configuration = NodeHarness.quiet
        configuration.txindex = false
        configuration.electrumPort = 0
        return configuration
    }

    static func config(_ simnet: Simnet, _ data: String) throws -> WatcherConfig {
        let port = try #require(simnet.electrumPort)
        let address = EngineHarness.followed
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [
               {"id": "bb", "type": "blockbook", "options": {"url": "\(simnet.baseURL)", "timeout": "2s"}},
               {"id": "node", "type": "bitcoind", "chain": "btc",
                "options": {"url": "\(simnet.baseURL)", "user": "watcher", "password": "${NODE_PASSWORD}",
                            "timeout": "2s"}},
               {"id": "el", "type": "electrum", "chain": "btc",
                "options": {"url": "tcp://127.0.0.1:\(port)", "timeout": "5s"}}],
             "watches": [
               {"id": "chain", "type": "blocks", "providers": ["bb"], "every": "1s"},
               {"id": "shop", "type": "address", "providers": ["bb", "node", "el"], "every": "1s", "agree": 3,
                "confirmations": [1], "addresses": ["\(address)"]}],
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: ["NODE_PASSWORD": NodeHarness.password])
            .load(bytes: Array(json.utf8))
    }

    @Test func aPaymentIsVerifiedByANodeWithoutTxindexAndByAnElectrumProof() async throws {
        try await Harness.withData(Self.configuration) { simnet, client, data in
            let config = try Self.config(simnet, data)
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: EngineHarness.followed)?.summary }
                        != nil
                }
                let txid = try await simnet.pay(to: EngineHarness.followed, amountSat: 50_000)
                let mined = try await simnet.mine()
                let confirmed = try await EngineHarness.event(store, "address.tx.confirmed", timeout: .seconds(90)) {
                    $0["txid"] == .string(txid)
                }
                #expect(AgreeHarness.verifiers(confirmed) == ["bb", "node", "el"])
                #expect(confirmed["data"]?["blockHash"] == .string(mined[0].hash))
                let disagreed = try EngineHarness.events(store).filter { $0["type"] == .string("provider.disagreed") }
                #expect(disagreed.isEmpty, "\(disagreed)")
            }
        }
    }
}

import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// `/control/electrum`: the Electrum face's personality and switches over the control API.
@Suite("The simnet's /control/electrum")
struct ElectrumControlTests {
    @Test("GET shows the face, POST sets its switches, a bad personality or lag is a 400")
    func settings() async throws {
        var configuration = SimnetConfiguration(seed: 5, txsPerBlock: 5)
        configuration.electrumPort = 0
        try await Simnet.with(configuration) { simnet in
            let shown = try await SimnetHarness.get(simnet, "/control/electrum").json()
            #expect(shown["personality"] == .string("electrs"))
            #expect(shown["port"] == .integer(simnet.electrumPort))
            #expect(shown["connections"] == .integer(0))
            let set = try await SimnetHarness.post(
                simnet,
                "/control/electrum",
                json: #"{"personality": "fulcrum", "maxSubscriptions": 5, "dropNotifications": 2}"#
            )
            #expect(set.status == 200)
            let settings = await simnet.electrumSettings()
            #expect(settings == ElectrumSettings(personality: .fulcrum, maxSubscriptions: 5, dropNotifications: 2))
            let bad = try await SimnetHarness.post(simnet, "/control/electrum", json: #"{"personality": "esplora"}"#)
            #expect(bad.status == 400)
            #expect(bad.text.contains("unknown personality esplora"))
            let quirks = try await SimnetHarness.post(
                simnet,
                "/control/electrum",
                json: #"""
                    {"personality": "electrumx", "indexLag": 3, "indexUnavailable": true, "maxHistory": 10,
                     "missingMethods": ["blockchain.scripthash.get_balance"]}
                    """#
            )
            #expect(quirks.status == 200)
            let shownQuirks = try quirks.json()
            #expect(shownQuirks["indexLag"] == .integer(3))
            #expect(shownQuirks["indexUnavailable"] == .bool(true))
            #expect(shownQuirks["maxHistory"] == .integer(10))
            #expect(shownQuirks["missingMethods"] == .array([.string("blockchain.scripthash.get_balance")]))
            let expected = ElectrumSettings(
                personality: .electrumx,
                maxSubscriptions: 5,
                dropNotifications: 2,
                indexLag: 3,
                indexUnavailable: true,
                maxHistory: 10,
                missingMethods: ["blockchain.scripthash.get_balance"]
            )
            #expect(await simnet.electrumSettings() == expected)
            _ = try await SimnetHarness.post(simnet, "/control/electrum", json: #"{"maxHistory": 0}"#)
            #expect(await simnet.electrumSettings().maxHistory == nil)
            let negative = try await SimnetHarness.post(simnet, "/control/electrum", json: #"{"indexLag": -1}"#)
            #expect(negative.status == 400)
            #expect(negative.text.contains("indexLag"))
        }
    }
}

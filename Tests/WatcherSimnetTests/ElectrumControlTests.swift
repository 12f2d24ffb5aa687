import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// `/control/electrum`: the Electrum face's personality and switches over the control API.
@Suite("The simnet's /control/electrum")
struct ElectrumControlTests {
    @Test("GET shows the face, POST sets its switches, a bad personality is a 400")
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
            let bad = try await SimnetHarness.post(simnet, "/control/electrum", json: #"{"personality": "electrumx"}"#)
            #expect(bad.status == 400)
            #expect(bad.text.contains("unknown personality electrumx"))
        }
    }
}

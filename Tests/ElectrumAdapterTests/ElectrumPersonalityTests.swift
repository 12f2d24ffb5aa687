import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

@testable import ElectrumAdapter

/// The Electrum face's personalities and control switches, and its per-method counters.
@Suite("The simnet's Electrum personalities and switches")
struct ElectrumPersonalityTests {
    @Test("electrs has no scripthash.get_mempool (-32601); fulcrum lists the mempool entries of the history")
    func getMempool() async throws {
        let payee = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
        let scripthash = try ElectrumHarness.scripthash(payee)
        try await ElectrumHarness.with(personality: .electrs) { _, client, _ in
            await #expect(throws: ElectrumClient.Failure.server(code: -32601, message: "method not found")) {
                _ = try await client.call("blockchain.scripthash.get_mempool", [.string(scripthash)])
            }
        }
        try await ElectrumHarness.with(personality: .fulcrum) { simnet, client, _ in
            let txid = try await simnet.pay(to: payee, amountSat: 40_000)
            let mempool = try #require(
                try await client.call("blockchain.scripthash.get_mempool", [.string(scripthash)]).arrayValue
            )
            #expect(mempool.count == 1)
            #expect(mempool.first?["tx_hash"] == .string(txid))
            let recorded = try #require(try ElectrumHarness.fixtureJSON("scripthash-get-mempool.json").arrayValue)
            #expect(mempool.first?.keys.sorted() == recorded.first?.keys.sorted())
        }
    }

    @Test("fulcrum refuses subscriptions past max_subs_per_ip with error 4; electrs has no cap")
    func subscriptionCap() async throws {
        let hashes = ["11", "22", "33"].map { String(repeating: $0, count: 32) }
        try await ElectrumHarness.with(personality: .fulcrum) { simnet, client, _ in
            var settings = await simnet.electrumSettings()
            settings.maxSubscriptions = 2
            await simnet.setElectrumSettings(settings)
            _ = try await client.call("blockchain.scripthash.subscribe", [.string(hashes[0])])
            _ = try await client.call("blockchain.scripthash.subscribe", [.string(hashes[1])])
            // Subscribing again to a subscribed hash is not a new subscription.
            _ = try await client.call("blockchain.scripthash.subscribe", [.string(hashes[1])])
            await #expect(throws: ElectrumClient.Failure.server(code: 4, message: "Subscription limit reached")) {
                _ = try await client.call("blockchain.scripthash.subscribe", [.string(hashes[2])])
            }
        }
        try await ElectrumHarness.with(personality: .electrs) { simnet, client, _ in
            var settings = await simnet.electrumSettings()
            settings.maxSubscriptions = 2
            await simnet.setElectrumSettings(settings)
            for hash in hashes { _ = try await client.call("blockchain.scripthash.subscribe", [.string(hash)]) }
        }
    }

    @Test("the switches send each scripthash notification twice, or drop the next ones")
    func duplicateAndMissed() async throws {
        let payee = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
        let scripthash = try ElectrumHarness.scripthash(payee)
        try await ElectrumHarness.with { simnet, client, inbox in
            _ = try await client.call("blockchain.scripthash.subscribe", [.string(scripthash)])
            await simnet.setElectrumSettings(ElectrumSettings(duplicateNotifications: true))
            try await simnet.pay(to: payee, amountSat: 40_000)
            try await eventually("two notifications") { inbox.params(of: "blockchain.scripthash.subscribe").count == 2 }
            let notes = inbox.params(of: "blockchain.scripthash.subscribe")
            #expect(notes[0] == notes[1])
            await simnet.setElectrumSettings(ElectrumSettings(dropNotifications: 1))
            try await simnet.pay(to: payee, amountSat: 41_000)
            #expect(await simnet.electrumSettings().dropNotifications == 0)
            try await simnet.pay(to: payee, amountSat: 42_000)
            try await eventually("the third payment's notification") {
                inbox.params(of: "blockchain.scripthash.subscribe").count == 3
            }
            let history = try await client.call("blockchain.scripthash.get_history", [.string(scripthash)])
            #expect(history.arrayValue?.count == 3)
        }
    }

    @Test("each method is counted under the electrum family's endpoints")
    func counters() async throws {
        try await ElectrumHarness.with { simnet, client, _ in
            await simnet.resetStats()
            _ = try await client.call("server.ping")
            _ = try await client.call("server.ping")
            _ = try await client.call("blockchain.relayfee")
            let family = try #require(await simnet.stats().families[.electrum])
            #expect(family.requests == 3)
            #expect(family.endpoints == ["server.ping": 2, "blockchain.relayfee": 1])
        }
    }

    @Test("request lines as a real wallet sent them to electrs (spaces, member order) are answered")
    func recordedClientLines() async throws {
        try await ElectrumHarness.with { simnet, client, _ in
            await simnet.resetStats()
            let lines = try ElectrumHarness.fixture("client-requests-recorded-mynode-438.jsonl")
            for line in String(decoding: lines, as: UTF8.self).split(separator: "\n") {
                client.send(rawLine: String(line))
            }
            // Their ids (23...27) are below the client's own, so the replies are dropped; the counters see them.
            try await eventually("five subscriptions counted") {
                await simnet.stats().families[.electrum]?.endpoints["blockchain.scripthash.subscribe"] == 5
            }
            #expect(try await client.call("server.ping") == .null)
        }
    }
}

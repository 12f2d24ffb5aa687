import Testing
import WatcherCore
import WatcherSimnet
import WatcherTesting

@testable import ElectrumAdapter

/// How the provider degrades on each server quirk the simnet's Electrum face plays.
@Suite("electrum provider under server quirks")
struct ElectrumQuirkProviderTests {
    static func simnet(
        seed: UInt64,
        _ settings: ElectrumSettings = ElectrumSettings(),
        _ body: (Simnet) async throws -> Void
    ) async throws {
        var configuration = SimnetConfiguration(seed: seed, txsPerBlock: 8)
        configuration.electrumPort = 0
        configuration.electrum = settings
        try await Simnet.with(configuration, body)
    }

    static func rejected(_ error: any Error, naming words: [String]) -> Bool {
        guard case .badRequest(_, let detail) = error as? ProviderError else { return false }
        return words.allSatisfy(detail.contains)
    }

    @Test("an unavailable index at start: unhealthy as still indexing, calls fail as unavailable, then it recovers")
    func indexingAtStart() async throws {
        try await Self.simnet(seed: 21, ElectrumSettings(indexUnavailable: true)) { simnet in
            let provider = try ElectrumContractTests.provider(simnet)
            let health = try await provider.health()
            #expect(!health.isHealthy)
            #expect(health.reason?.contains("still indexing") == true, "\(health)")
            await #expect {
                _ = try await provider.address(ElectrumQuirkFaceTests.payee)
            } throws: { error in
                guard case .unavailable(_, _, let detail?) = error as? ProviderError else { return false }
                return detail.contains("unavailable index")
            }
            await ElectrumQuirkFaceTests.set(simnet) { $0.indexUnavailable = false }
            // The session start is retried after its backoff.
            let recovered = try await eventuallyValue(timeout: .seconds(90), "healthy once indexed") {
                let health = try await provider.health()
                return health.isHealthy ? health : nil
            }
            #expect(recovered.bestHeight == (await simnet.tip()).height)
            _ = try await provider.address(ElectrumQuirkFaceTests.payee)
        }
    }

    @Test("an index that becomes unavailable mid-session (compaction): unhealthy as indexing, healthy again after")
    func indexingMidSession() async throws {
        try await Self.simnet(seed: 22) { simnet in
            let provider = try ElectrumContractTests.provider(simnet)
            #expect(try await provider.health().isHealthy)
            await ElectrumQuirkFaceTests.set(simnet) { $0.indexUnavailable = true }
            // Headers are still answered, the index is not.
            _ = try await provider.tip()
            let health = try await provider.health()
            #expect(!health.isHealthy)
            #expect(health.reason?.contains("still indexing") == true, "\(health)")
            await ElectrumQuirkFaceTests.set(simnet) { $0.indexUnavailable = false }
            #expect(try await provider.health().isHealthy)
        }
    }

    @Test("a lagging index: the provider's tip is the index's, N blocks behind the node's, and catches up")
    func lagging() async throws {
        try await Self.simnet(seed: 23, ElectrumSettings(indexLag: 3)) { simnet in
            let provider = try ElectrumContractTests.provider(simnet)
            let node = await simnet.tip()
            let health = try await provider.health()
            #expect(health.isHealthy)
            #expect(health.bestHeight == node.height - 3)
            #expect(try await provider.tip().height == node.height - 3)
            await ElectrumQuirkFaceTests.set(simnet) { $0.indexLag = 0 }
            #expect(try await provider.tip() == node)
        }
    }

    @Test("a server without get_balance (-32601): the balance is summed from the history, the method asked once")
    func missingBalance() async throws {
        let settings = ElectrumSettings(personality: .fulcrum, missingMethods: ["blockchain.scripthash.get_balance"])
        try await Self.simnet(seed: 24, settings) { simnet in
            let provider = try ElectrumContractTests.provider(simnet)
            let payee = ElectrumQuirkFaceTests.payee
            try await simnet.pay(to: payee, amountSat: 41_000)
            _ = try await simnet.mine(count: 1)
            try await simnet.pay(to: payee, amountSat: 7_000)
            let truths = await simnet.addresses()
            for address in [payee, try #require(truths.first { $0.funded && $0.confirmedTxCount >= 2 }).address] {
                let truth = try #require(truths.first { $0.address == address })
                let summary = try await provider.address(address)
                #expect(summary.balanceSat == truth.confirmedBalanceSat, "\(address)")
                #expect(summary.unconfirmedBalanceSat == truth.unconfirmedBalanceSat, "\(address)")
                #expect(summary.txCount == truth.confirmedTxCount, "\(address)")
            }
            let asked = await simnet.stats().families[.electrum]?.endpoints["blockchain.scripthash.get_balance"]
            #expect(asked == 1, "marked unsupported for the session after the first -32601")
        }
    }

    @Test("Fulcrum's max_history: the withheld history is reported naming the address and max_history")
    func fulcrumMaxHistory() async throws {
        try await Self.simnet(seed: 25, ElectrumSettings(personality: .fulcrum)) { simnet in
            let (long, short, _) = try await ElectrumQuirkFaceTests.longAndShort(simnet)
            await ElectrumQuirkFaceTests.set(simnet) { $0.maxHistory = ElectrumQuirkFaceTests.limit }
            let provider = try ElectrumContractTests.provider(simnet)
            await #expect {
                _ = try await provider.address(long)
            } throws: { error in
                Self.rejected(error, naming: [long, "max_history"])
            }
            let summary = try await provider.address(short)
            #expect(summary.unconfirmedTxCount == 1)
        }
    }

    @Test("ElectrumX's history too large: reported naming the address; the push keeps the other addresses")
    func electrumxTooLarge() async throws {
        try await Self.simnet(seed: 26, ElectrumSettings(personality: .electrumx)) { simnet in
            let (long, short, _) = try await ElectrumQuirkFaceTests.longAndShort(simnet)
            await ElectrumQuirkFaceTests.set(simnet) { $0.maxHistory = ElectrumQuirkFaceTests.limit }
            let provider = try ElectrumContractTests.provider(simnet, pushAddresses: 10)
            await #expect {
                _ = try await provider.address(long)
            } throws: { error in
                Self.rejected(error, naming: [long, "history too large"])
            }
            await #expect {
                _ = try await provider.addressTransactions(long, limit: 10, after: nil)
            } throws: { error in
                Self.rejected(error, naming: [long, "history too large"])
            }
            #expect(try await provider.address(short).unconfirmedTxCount == 1)
            let push = try #require(provider.push as? ElectrumPush)
            let events = ElectrumPushTests.Events()
            let following = Task { [push] in
                try await push.follow(addresses: { [long, short] }, onEvent: { events.append($0) })
            }
            defer { following.cancel() }
            try await eventually("subscribed") { events.all.contains(.subscribed) }
            #expect(push.coverage.tooLarge == [long])
            #expect(push.coverage.subscribed == 1)
            let txid = try await simnet.pay(to: short, amountSat: 12_000)
            try await eventually("the other address's payment pushed") {
                events.all.contains(.addressTx(address: short, txid: txid, deltaSat: nil, confirmed: false))
            }
        }
    }
}

import Synchronization
import Testing
import WatcherCore
import WatcherSimnet
import WatcherTesting

@testable import ElectrumAdapter

/// The push connection's subscription statuses answer the summaries of unused addresses, against the simnet's
/// Electrum face, counted by the face itself: no `get_balance` or `get_history` for them, one subscription for an
/// address the push did not follow yet, none after, and the summary's own requests again once the connection is
/// gone or when the server is Fulcrum (whose null status can hide a history past its limit).
@Suite("electrum status book")
struct ElectrumStatusBookTests {
    static let paid = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
    static let unused = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
    static let notFollowed = "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el"

    static func counts(_ simnet: Simnet) async -> [String: Int] {
        await simnet.stats().families[.electrum]?.endpoints ?? [:]
    }

    /// How many `get_balance` the face has answered.
    static func balances(_ simnet: Simnet) async -> Int {
        await counts(simnet)["blockchain.scripthash.get_balance"] ?? 0
    }

    /// Runs `body` while a push connection follows `paid` and `unused`.
    static func following(
        _ settings: ElectrumSettings,
        seed: UInt64,
        _ body: (Simnet, ElectrumProvider, Task<Void, any Error>) async throws -> Void
    ) async throws {
        var configuration = SimnetConfiguration(seed: seed, txsPerBlock: 8)
        configuration.electrumPort = 0
        try await Simnet.with(configuration) { simnet in
            await simnet.setElectrumSettings(settings)
            _ = try await simnet.pay(to: paid, amountSat: 40_000)
            _ = try await simnet.mine(count: 1)
            let provider = try ElectrumContractTests.provider(simnet, pushAddresses: 100)
            var push = try #require(provider.push as? ElectrumPush)
            // No comparison of the set after the first: an address subscribed on demand stays until the test ends.
            push.followInterval = .seconds(3600)
            let subscribed = Mutex(false)
            let following = Task { [push] in
                try await push.follow(addresses: { [paid, unused] }) { event in
                    if event == .subscribed { subscribed.withLock { $0 = true } }
                }
            }
            defer { following.cancel() }
            try await eventually("subscribed") { subscribed.withLock { $0 } }
            try await body(simnet, provider, following)
        }
    }

    @Test("an unused address's summary costs no request while the push follows it")
    func unusedAddressesAreAnsweredByTheirStatus() async throws {
        try await Self.following(ElectrumSettings(personality: .electrumx), seed: 31) { simnet, provider, following in
            let before = await Self.counts(simnet)
            let summary = try await provider.address(Self.unused)
            #expect(summary.balanceSat == 0 && summary.txCount == 0 && summary.unconfirmedTxCount == 0)
            #expect(await Self.counts(simnet) == before, "no request for a followed unused address")

            // A used one asks as before.
            let balances = await Self.balances(simnet)
            let paid = try await provider.address(Self.paid)
            #expect(paid.balanceSat == 40_000 && paid.txCount == 1)
            #expect(await Self.balances(simnet) == balances + 1)

            // Not followed yet: subscribed on the push connection once, then followed; no summary request.
            let subscribes = await Self.counts(simnet)["blockchain.scripthash.subscribe"] ?? 0
            let first = try await provider.address(Self.notFollowed)
            let second = try await provider.address(Self.notFollowed)
            #expect(first.txCount == 0 && second.txCount == 0)
            #expect(await Self.counts(simnet)["blockchain.scripthash.subscribe"] == subscribes + 1)
            #expect(await Self.balances(simnet) == balances + 1)

            // A payment moves its status (the notification): the summary asks and sees it.
            _ = try await simnet.pay(to: Self.unused, amountSat: 25_000)
            let seen = try await eventuallyValue("the payment in the summary") {
                let summary = try await provider.address(Self.unused)
                return summary.unconfirmedBalanceSat == 25_000 ? summary : nil
            }
            #expect(seen.unconfirmedTxCount == 1)

            // The connection gone: nothing it said holds, the summary asks for itself.
            following.cancel()
            _ = await following.result
            let gone = await Self.balances(simnet)
            let asked = try await provider.address(Self.notFollowed)
            #expect(asked.txCount == 0)
            #expect(await Self.balances(simnet) == gone + 1)
        }
    }

    @Test("a Fulcrum server's statuses are not lent: its null status may hide a history past its limit")
    func fulcrumIsAskedEveryTime() async throws {
        try await Self.following(ElectrumSettings(personality: .fulcrum), seed: 32) { simnet, provider, _ in
            let before = await Self.balances(simnet)
            let summary = try await provider.address(Self.unused)
            #expect(summary.txCount == 0)
            #expect(await Self.balances(simnet) == before + 1)
        }
    }
}

import Synchronization
import Testing
import WatcherCore
import WatcherSimnet
import WatcherTesting

@testable import ElectrumAdapter

/// The push connection against the simnet's Electrum face: headers become new blocks, a status change of a
/// followed scripthash becomes the transactions it brought.
@Suite("electrum push")
struct ElectrumPushTests {
    final class Events: Sendable {
        private let events = Mutex<[PushEvent]>([])
        func append(_ event: PushEvent) { events.withLock { $0.append(event) } }
        var all: [PushEvent] { events.withLock { $0 } }
    }

    @Test("a payment, its confirmation and new blocks are pushed; a new address is followed at the recheck")
    func follows() async throws {
        var configuration = SimnetConfiguration(seed: 11, txsPerBlock: 8)
        configuration.electrumPort = 0
        try await Simnet.with(configuration) { simnet in
            let provider = try ElectrumContractTests.provider(simnet, pushAddresses: 1_000)
            var push = try #require(provider.push as? ElectrumPush)
            #expect(push.maxAddresses == 1_000)
            push.recheckInterval = .milliseconds(200)
            push.followInterval = .milliseconds(200)
            let payee = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
            let later = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
            let followed = Mutex<[String]>([payee])
            let events = Events()
            let following = Task { [push] in
                try await push.follow(addresses: { followed.withLock { $0 } }, onEvent: { events.append($0) })
            }
            defer { following.cancel() }
            try await eventually("subscribed") { events.all.contains(.subscribed) }
            let tip = await simnet.tip()
            #expect(events.all.first == .newBlock(height: tip.height, hash: tip.hash))
            let txid = try await simnet.pay(to: payee, amountSat: 25_000)
            try await eventually("the mempool payment") {
                events.all.contains(.addressTx(address: payee, txid: txid, deltaSat: nil, confirmed: false))
            }
            let mined = try await simnet.mine(count: 1)
            try await eventually("the block and the confirmation") {
                events.all.contains(.newBlock(height: mined[0].height, hash: mined[0].hash))
                    && events.all.contains(.addressTx(address: payee, txid: txid, deltaSat: nil, confirmed: true))
            }
            // Whether the recheck subscribes it before or after the payment (its history then read quietly), the
            // confirmation changes its status.
            func subscribes() async -> Int {
                await simnet.stats().families[.electrum]?.endpoints["blockchain.scripthash.subscribe"] ?? 0
            }
            followed.withLock { $0.append(later) }
            let baseline = await subscribes()
            let second = try await simnet.pay(to: later, amountSat: 30_000)
            // A recheck round subscribes new addresses first, then re-checks a slice: past the one re-check a round
            // under way may add, the next subscription is the new address's.
            try await eventually("the new address followed") { await subscribes() >= baseline + 2 }
            let confirming = try await simnet.mine(count: 1)
            try await eventually("the new address's payment confirmed") {
                events.all.contains(.addressTx(address: later, txid: second, deltaSat: nil, confirmed: true))
                    && events.all.contains(.newBlock(height: confirming[0].height, hash: confirming[0].hash))
            }
            // Nothing else was reported for the payee: one event per change, none for unchanged statuses.
            let payeeEvents = events.all.filter {
                if case .addressTx(payee, _, _, _, _, _) = $0 { true } else { false }
            }
            #expect(payeeEvents.count == 2)
        }
    }
}

extension ElectrumPushTests {
    @Test("a dropped connection ends the push with an error naming it, and the next call reconnects")
    func dropped() async throws {
        var configuration = SimnetConfiguration(seed: 12, txsPerBlock: 8)
        configuration.electrumPort = 0
        try await Simnet.with(configuration) { simnet in
            let provider = try ElectrumContractTests.provider(simnet, pushAddresses: 10)
            let push = try #require(provider.push)
            let before = try await provider.tip()
            let events = Events()
            let following = Task {
                try await push.follow(addresses: { ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"] }) {
                    events.append($0)
                }
            }
            try await eventually("subscribed") { events.all.contains(.subscribed) }
            #expect(simnet.electrumConnections == 2)
            simnet.dropElectrumConnections()
            await #expect {
                try await following.value
            } throws: { error in
                guard case .unavailable(_, _, let detail?) = error as? ProviderError else { return false }
                return detail.contains("push connection to tcp://127.0.0.1:") && detail.contains("closed")
            }
            try await eventually("the request connection noticed the drop") { simnet.electrumConnections == 0 }
            let mined = try await simnet.mine(count: 1)
            let after = try await eventuallyValue("the tip over a new connection") { try? await provider.tip() }
            #expect(after.height == before.height + 1 && after.hash == mined[0].hash)
        }
    }

    @Test("Fulcrum's subscription cap: the push keeps what it has, and names the addresses left to polling")
    func subscriptionCap() async throws {
        var configuration = SimnetConfiguration(seed: 13, txsPerBlock: 8)
        configuration.electrumPort = 0
        configuration.electrum = ElectrumSettings(personality: .fulcrum, maxSubscriptions: 2)
        try await Simnet.with(configuration) { simnet in
            let provider = try ElectrumContractTests.provider(simnet, pushAddresses: 10)
            let push = try #require(provider.push as? ElectrumPush)
            let addresses = [
                "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
                "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
            ]
            let events = Events()
            let following = Task { [push] in
                try await push.follow(addresses: { addresses }, onEvent: { events.append($0) })
            }
            defer { following.cancel() }
            try await eventually("subscribed despite the cap") { events.all.contains(.subscribed) }
            #expect(push.coverage.capped)
            #expect(push.coverage.subscribed == 2)
            let uncovered = push.coverage.uncovered
            #expect(uncovered.count == 1 && addresses.contains(uncovered[0]), "\(uncovered)")
            // A covered address is still pushed.
            let covered = try #require(addresses.first { $0 != uncovered[0] })
            let txid = try await simnet.pay(to: covered, amountSat: 25_000)
            try await eventually("the covered address's payment pushed") {
                events.all.contains(.addressTx(address: covered, txid: txid, deltaSat: nil, confirmed: false))
            }
        }
    }
}

extension ElectrumPushTests {
    @Test("a notification the server misses is caught by the re-check after the next header")
    func missedNotification() async throws {
        var configuration = SimnetConfiguration(seed: 14, txsPerBlock: 8)
        configuration.electrumPort = 0
        try await Simnet.with(configuration) { simnet in
            let provider = try ElectrumContractTests.provider(simnet, pushAddresses: 10)
            var push = try #require(provider.push as? ElectrumPush)
            push.recheckInterval = .seconds(3600)
            let payee = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
            let events = Events()
            let following = Task { [push] in
                try await push.follow(addresses: { [payee] }, onEvent: { events.append($0) })
            }
            defer { following.cancel() }
            try await eventually("subscribed") { events.all.contains(.subscribed) }
            await simnet.setElectrumSettings(ElectrumSettings(dropNotifications: 1))
            let txid = try await simnet.pay(to: payee, amountSat: 25_000)
            #expect(await simnet.electrumSettings().dropNotifications == 0)
            #expect(!events.all.contains { if case .addressTx = $0 { true } else { false } })
            // The block confirms it: its header makes the push re-subscribe, which finds the status moved.
            let mined = try await simnet.mine(count: 1)
            try await eventually("the block and the payment, found by the re-check") {
                events.all.contains(.newBlock(height: mined[0].height, hash: mined[0].hash))
                    && events.all.contains(.addressTx(address: payee, txid: txid, deltaSat: nil, confirmed: true))
            }
        }
    }
}

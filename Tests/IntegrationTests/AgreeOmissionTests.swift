import AsyncHTTPClient
import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// A lie by omission: the provider in charge of an `agree: 2` watch answers the followed address as unused
/// (`POST /control/hide`), on the same chain as the others. It claims nothing, so there is nothing to verify; the
/// second opinion (the next provider's summaries, once per block) finds the payment, its claim is verified by the
/// third, and the payment is announced once, with the balance the honest two hold. On the wall clock, over HTTP.
@Suite(.serialized)
struct AgreeOmissionTests {
    static let followed = AgreeTests.honestAddress

    static func config(_ simnets: [Simnet], _ data: String) throws -> WatcherConfig {
        let ids = ["liar", "h1", "h2"]
        let providers = zip(ids, simnets).map { id, simnet in
            """
            {"id": "\(id)", "type": "blockbook", "options": {"url": "\(simnet.baseURL)", "timeout": "2s"},
             "rateLimit": {"requests": 6000, "per": "1m", "burst": 100, "concurrency": 4}}
            """
        }
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [\(providers.joined(separator: ","))],
             "watches": [
               {"id": "chain", "type": "blocks", "providers": ["h1", "h2"], "every": "1s"},
               {"id": "shop", "type": "address", "providers": ["liar", "h1", "h2"], "every": "1s", "agree": 2,
                "strategy": "poll", "confirmations": [1], "addresses": ["\(followed)"]}],
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    @Test func aPaymentTheProviderInChargeHidesIsFoundByTheSecondOpinionAndAnnouncedOnce() async throws {
        let data = EngineIntegrationTests.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await Simnet.with(WatchShapeTests.quiet) { first in
            try await Simnet.with(WatchShapeTests.quiet) { second in
                try await Simnet.with(WatchShapeTests.quiet) { third in
                    let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
                    do {
                        try await run([first, second, third], client: client, data: data)
                        try await client.shutdown()
                    } catch {
                        try? await client.shutdown()
                        throw error
                    }
                }
            }
        }
    }

    func run(_ simnets: [Simnet], client: HTTPClient, data: String) async throws {
        let liar = simnets[0]
        await liar.hide(Self.followed)
        let config = try Self.config(simnets, data)
        try await EngineIntegrationTests.running(config, client: client) { store in
            try await eventually("the baseline") {
                try store.read { try $0.addressState(chain: "btc", address: Self.followed)?.summary } != nil
            }
            let paid = try await AgreeTests.each(simnets) { try await $0.pay(to: Self.followed, amountSat: 50_000) }
            let mined = try await AgreeTests.each(simnets) { try await $0.mine() }
            #expect(Set(paid).count == 1)
            #expect(Set(mined.map { $0.map(\.hash) }).count == 1, "one chain: the liar only hides the address")
            let confirmed = try await WatchShapeTests.event(store, "address.tx.confirmed", timeout: .seconds(60)) {
                $0["txid"] == .string(paid[0])
            }
            #expect(confirmed["data"]?["verifiedBy"] == .array([.string("h1"), .string("h2")]))
            #expect(confirmed["data"]?["blockHash"] == .string(mined[0][0].hash))

            // Blocks later, the liar still in charge and still hiding: the payment stays, announced once, and the
            // balance is the one the honest two hold.
            let asked = await simnets[1].stats().families[.blockbook]?.endpoints["/api/v2/address"] ?? 0
            _ = try await AgreeTests.each(simnets) { try await $0.mine(count: 2) }
            try await eventually(timeout: .seconds(60), "a second opinion at the new tip") {
                await simnets[1].stats().families[.blockbook]?.endpoints["/api/v2/address"] ?? 0 >= asked + 1
            }
            let state = try #require(try store.read { try $0.addressState(chain: "btc", address: Self.followed) })
            #expect(state.txs[paid[0]]?.blockHash == mined[0][0].hash)
            #expect(state.summary?.balanceSat == 50_000)
            let about = try WatchShapeTests.events(store).filter { $0["data"]?["txid"] == .string(paid[0]) }
            #expect(about.filter { $0["type"] == .string("address.tx.confirmed") }.count == 1)
            #expect(!about.contains { $0["type"] == .string("address.tx.reverted") })
            #expect(!about.contains { $0["type"] == .string("address.tx.replaced") })
            let balances = try AgreeTests.events(store, "address.balance.changed")
            #expect(balances.last?["data"]?["balanceSat"] == .number("50000"), "\(balances)")
        }
    }
}

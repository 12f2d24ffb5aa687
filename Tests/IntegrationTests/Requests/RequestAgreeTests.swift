import AsyncHTTPClient
import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherEventLog
import WatcherJSON
import WatcherPlugins
import WatcherRequests
import WatcherRules
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// Settlement under `agree: 2`: three simnets with the same seed, the provider in charge of the wallet a liar that
/// mines a payment to a request into a block only it has. That request is never settled (the confirmation is
/// withheld and `provider.disagreed` names the liar); a request paid on the honest chain settles, `verifiedBy`
/// naming the two honest providers. And `zeroConf.minSeenBy: 2`: a payment only the provider in charge reports does
/// not settle unconfirmed until a second provider reports it. In the wall-clock phase with the other agree suites:
/// three providers must each answer within the 1 s rounds.
@Suite(.serialized)
struct RequestAgreeTests {
    static func config(
        _ simnets: [Simnet],
        _ data: String,
        ids: [String] = ["h1", "liar", "h2"],
        wallet: String = #""providers": ["liar", "h1", "h2"], "agree": 2"#,
        requests: String = "{}",
        websocket: Bool = true
    ) throws -> WatcherConfig {
        let providers = Harness.blockbookProviders(ids, simnets, websocket: websocket)
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [\(providers)],
             "watches": [
               {"id": "chain", "type": "blocks", "providers": ["\(ids[0])", "\(ids[2])"], "every": "1s"},
               {"id": "shop", "type": "wallet", \(wallet), "every": "1s",
                "strategy": "poll", "confirmations": [1], "gap": 3, "descriptor": "\(WalletHarness.descriptor)",
                "requests": \(requests)}],
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    static func create(_ store: Store, config: WatcherConfig, sat: Int64) async throws -> PaymentRequest {
        let watch = try #require(config.watches.first { $0.id == "shop" })
        let wallet = try #require(WalletBook.load(chain: "btc", watches: [watch]).wallets["shop"])
        return try await RequestDesk.create(
            RequestOrder(wallet: "shop", amount: .sat(sat)),
            wallet: wallet,
            terms: try #require(watch.requests),
            chain: "btc",
            log: EventLog(store: store),
            builder: EventBuilder(),
            now: Date()
        ).request
    }

    @Test func aConfirmationOnlyTheLiarClaimsSettlesNothing() async throws {
        try await Harness.withThree { simnets, client, data in
            let liar = simnets[1]
            let config = try Self.config(simnets, data)
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the wallet's first pass") {
                    try store.read { try $0.walletState(chain: "btc", wallet: "shop")?.receive.checkedUpTo != nil }
                }
                let lied = try await Self.create(store, config: config, sat: 40_000)
                let honest = try await Self.create(store, config: config, sat: 30_000)
                let lie = try await liar.pay(to: lied.address, amountSat: 40_000)
                try await liar.mine()
                let disagreed = try await EngineHarness.event(store, "provider.disagreed", timeout: .seconds(60)) {
                    $0["txid"] == .string(lie)
                }
                #expect(disagreed["data"]?["claimedBy"] == .string("liar"))

                // The same calls on all three: the honest two stay identical, the liar on a chain of its own.
                let paid = try await AgreeHarness.each(simnets) {
                    try await $0.pay(to: honest.address, amountSat: 30_000)
                }
                #expect(paid[0] == paid[2])
                _ = try await AgreeHarness.each(simnets) { try await $0.mine() }
                let settled = try await EngineHarness.event(store, "request.settled", timeout: .seconds(60)) {
                    $0["id"] == .string(honest.id)
                }
                #expect(settled["data"]?["verifiedBy"] == .array([.string("h1"), .string("h2")]), "\(settled)")
                let stored = try store.read { try $0.request(chain: "btc", id: lied.id) }
                #expect(stored?.status != .settled, "\(String(describing: stored))")
                #expect(
                    try EngineHarness.events(store).filter {
                        $0["type"] == .string("request.settled") && $0["subject"] == .string(lied.id)
                    }.isEmpty
                )
            }
        }
    }

    @Test func aPaymentOnlyTheProviderInChargeReportsWaitsForASecondOneToSettleUnconfirmed() async throws {
        try await Harness.withThree { simnets, client, data in
            let config = try Self.config(
                simnets,
                data,
                ids: ["p1", "p2", "p3"],
                wallet: #""providers": ["p1", "p2", "p3"]"#,
                requests: #"{"zeroConf": {"maxSat": 50000, "allowRbf": true, "minSeenBy": 2}}"#,
                // The polls find the payment (a pushed one is counted at the next poll).
                websocket: false
            )
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the wallet's first pass") {
                    try store.read { try $0.walletState(chain: "btc", wallet: "shop")?.receive.checkedUpTo != nil }
                }
                let request = try await Self.create(store, config: config, sat: 40_000)
                let asked = { (simnet: Simnet) async in
                    await simnet.stats().families[.blockbook]?.endpoints["/api/v2/tx"] ?? 0
                }
                let before = await asked(simnets[1])
                // Only p1, the provider in charge, has the payment: p2 and p3 answer "not found".
                let txid = try await simnets[0].pay(to: request.address, amountSat: 40_000)
                let seen = try await EngineHarness.event(store, "request.payment.seen", timeout: .seconds(60)) {
                    $0["id"] == .string(request.id)
                }
                #expect(seen["data"]?["payment"]?["seenBy"] == .array([.string("p1")]), "\(seen)")
                // Two more rounds asked p2 about it: each could have settled it, none did.
                try await eventually(timeout: .seconds(60), "p2 asked twice") { await asked(simnets[1]) >= before + 2 }
                #expect(try store.read { try $0.request(chain: "btc", id: request.id) }?.status == .paid)
                // p2 learns of the same transaction (the same seed, the same call): two providers report it now.
                #expect(try await simnets[1].pay(to: request.address, amountSat: 40_000) == txid)
                let settled = try await EngineHarness.event(store, "request.settled", timeout: .seconds(60)) {
                    $0["id"] == .string(request.id)
                }
                #expect(settled["data"]?["policy"] == .string("zeroConf"), "\(settled)")
                #expect(settled["data"]?["payments"]?[0]?["confirmations"] == .number("0"))
                #expect(
                    settled["data"]?["payments"]?[0]?["seenBy"] == .array([.string("p1"), .string("p2")]),
                    "\(settled)"
                )
            }
        }
    }
}

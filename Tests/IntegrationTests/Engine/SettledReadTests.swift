import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// A round that finds a confirmation reads the address's summary again after its history
/// (``AddressDriver/settledRead(_:summary:stored:tipHeight:context:)``). When a block lands between that history and
/// that summary, the summary counts a transaction the history does not hold. Committed together, the step's
/// `balanceSat` came out of the newer summary, and the address stood still from then on: the newer transaction
/// was never announced, since the summary no longer changed. The same for a wallet pass, whose addresses are read
/// one by one: a block between two of them. A proxy in front of the simnet mines that block at exactly that moment.
@Suite struct SettledReadTests {
    static let address = EngineHarness.followed

    @Test func aBlockBetweenTheHistoryAndTheSummaryIsReadAgain() async throws {
        let watches = """
            {"id": "chain", "type": "blocks", "providers": ["bb"], "every": "1s"},
            {"id": "a", "type": "address", "providers": ["bb"], "every": "1s", "strategy": "poll",
             "confirmations": [1], "addresses": ["\(Self.address)"]}
            """
        try await Self.proxied(watches: watches) { simnet, proxy, store in
            try await eventually("the baseline") {
                try store.read { try $0.addressState(chain: "btc", address: Self.address)?.summary != nil }
            }
            let first = try await simnet.pay(to: Self.address, amountSat: 40_000)
            try await EngineHarness.event(store, "address.tx.unconfirmed") { $0["txid"] == .string(first) }
            // The round that finds `first` confirmed reads its history; right after that answer, `second`
            // is paid and mined, before the summary is read again.
            let second = Mutex<String?>(nil)
            proxy.afterNext(Self.address, details: "txs") {
                let txid = try await simnet.pay(to: Self.address, amountSat: 25_000)
                _ = try await simnet.mine()
                second.withLock { $0 = txid }
            }
            _ = try await simnet.mine()
            let confirmed = try await EngineHarness.event(
                store,
                "address.tx.confirmed",
                timeout: .seconds(60)
            ) {
                $0["txid"] == .string(second.withLock { $0 } ?? "-")
            }
            #expect(confirmed["data"]?["blockHeight"] != nil)
            #expect(proxy.fired)
            // The balance after each confirmation counts the chain up to it, not the summary read after it.
            let steps = try AgreeHarness.events(store, "address.balance.changed").compactMap { $0["data"] }
            let before = steps.first { $0["txid"] == .string(first) && $0["state"] == .string("confirmed") }
            let after = steps.first {
                $0["txid"] == .string(second.withLock { $0 } ?? "-") && $0["state"] == .string("confirmed")
            }
            let truth = try #require(await simnet.addresses().first { $0.address == Self.address })
            #expect(after?["balanceSat"] == .number("\(truth.confirmedBalanceSat)"))
            #expect(before?["balanceSat"] == .number("\(truth.confirmedBalanceSat - 25_000)"))
        }
    }

    /// A block stored while a round reads an address drops that reading (the summary may predate the block), and
    /// the round reads the address again at once. It was left to the next round, which a new block starts only for a
    /// polled watch: the balance fill of a scanned watch (here, hourly), or a watch whose rounds the push starts
    /// (only when a status changes), had no baseline for that address until its next round (a gate run:
    /// `ElectrumBlockCostTests` waited 120 s for one). Here the first summary's answer is held until the tip job
    /// has stored a block mined meanwhile.
    @Test func anAddressReadWhileABlockIsStoredIsReadAgainInTheSameRound() async throws {
        let watches = """
            {"id": "chain", "type": "blocks", "providers": ["bb"], "every": "1s"},
            {"id": "a", "type": "address", "providers": ["bb"], "every": "1h", "strategy": "scan",
             "addresses": ["\(Self.address)"]}
            """
        let opened = Mutex<Store?>(nil)
        let arm: @Sendable (Simnet, Proxy) -> Void = { simnet, proxy in
            proxy.afterNext(Self.address, details: "tokens") {
                let mined = try await simnet.mine()
                try await eventually("the block stored while the summary is held") {
                    try opened.withLock { $0 }?.read { try $0.tip(chain: "btc") }?.hash == mined[0].hash
                }
            }
        }
        try await Self.proxied(watches: watches, arm: arm) { simnet, proxy, store in
            opened.withLock { $0 = store }
            try await eventually(timeout: .seconds(30), "the address's baseline, read again after the block") {
                try store.read { try $0.addressState(chain: "btc", address: Self.address)?.summary != nil }
            }
            #expect(proxy.fired)
        }
    }

    /// BIP84's account (Tests/WatcherAppTests/Fixtures/bip84_vectors.json), gap 3: receive 0 and change 0.
    static let descriptor =
        "wpkh([73c5da0a/84h/0h/0h]xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V/<0;1>/*)#qf45pmyh"
    static let receive = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
    static let change = "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el"

    /// A `poll` wallet reads its addresses one by one (here one at a time, receive first). A block that reaches the
    /// provider after receive 0 was read and before change 0 is, spending from the first to the second, left
    /// receive 0's balance counting the spent coin while change 0's history confirmed the spend: the wallet step's
    /// `balanceSat` was off by the coin. The pass is now read again when it finds a block the store does not hold.
    /// (The tip job runs hourly, so that the block is not stored, and the pass not dropped, before it commits.)
    @Test func aBlockDuringAWalletPassIsReadAgain() async throws {
        let watches = """
            {"id": "chain", "type": "blocks", "providers": ["bb"], "every": "1h"},
            {"id": "shop", "type": "wallet", "providers": ["bb"], "every": "1s", "strategy": "poll",
             "descriptor": "\(Self.descriptor)", "gap": 3}
            """
        try await Self.proxied(watches: watches, concurrency: 1) { simnet, proxy, store in
            try await eventually("the wallet's first look") {
                try store.read { txn in
                    let state = try txn.walletState(chain: "btc", wallet: "shop")
                    return (state?.receive.checkedUpTo ?? -1) >= 0 && (state?.change.checkedUpTo ?? -1) >= 0
                }
            }
            let payment = try await simnet.pay(to: Self.receive, amountSat: 50_000)
            try await EngineHarness.event(store, "address.tx.unconfirmed") { $0["txid"] == .string(payment) }
            _ = try await simnet.mine()
            try await EngineHarness.event(store, "address.tx.confirmed") { $0["txid"] == .string(payment) }
            let outside = "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3"
            let spend = try await simnet.pay(
                to: outside,
                amountSat: 30_000,
                from: Self.receive,
                change: Self.change
            )
            try await EngineHarness.event(store, "address.tx.unconfirmed") { $0["txid"] == .string(spend) }
            proxy.afterNext(Self.receive, details: "tokens") { _ = try await simnet.mine() }
            let step = try await eventuallyValue(timeout: .seconds(60), "the spend's confirmed wallet step") {
                try AgreeHarness.events(store, "wallet.balance.changed").first {
                    $0["data"]?["txid"] == .string(spend) && $0["data"]?["state"] == .string("confirmed")
                }
            }
            #expect(proxy.fired)
            let truths = await simnet.addresses().filter { [Self.receive, Self.change].contains($0.address) }
            let balance = truths.reduce(Int64(0)) { $0 + $1.confirmedBalanceSat }
            #expect(step["data"]?["balanceSat"] == .number("\(balance)"))
        }
    }

    /// Runs the engine with `watches` on one `blockbook` provider `bb` reached through a ``Proxy`` in front of a
    /// quiet simnet, its requests `concurrency` at a time (the default when `nil`), while `body` runs.
    static func proxied(
        watches: String,
        concurrency: Int? = nil,
        arm: @Sendable (Simnet, Proxy) -> Void = { _, _ in },
        _ body: @escaping @Sendable (Simnet, Proxy, Store) async throws -> Void
    ) async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let proxy = Proxy(simnet: simnet, client: client)
            arm(simnet, proxy)
            try await LoopbackServer.with(proxy) { port in
                let width = concurrency.map { #", "concurrency": \#($0)"# } ?? ""
                let json = """
                    {"storage": {"path": "\(data)"},
                     "providers": [{"id": "bb", "type": "blockbook",
                                    "options": {"url": "http://127.0.0.1:\(port)", "timeout": "10s"},
                                    "rateLimit": {"requests": 6000, "per": "1m", "burst": 100\(width)}}],
                     "watches": [\(watches)],
                     "sinks": []}
                    """
                let config = try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
                try await EngineHarness.running(config, client: client) { store in
                    try await body(simnet, proxy, store)
                }
            }
        }
    }

    /// Forwards every request to the simnet; once armed, runs an action once the simnet has answered the next
    /// request about an address with the given `details` (`txs`: its history, `tokens`: its summary), before
    /// passing that answer on.
    final class Proxy: HTTPResponder, Sendable {
        typealias Context = BasicRequestContext
        struct Trigger: Sendable {
            var path: String
            var details: String
            var action: @Sendable () async throws -> Void
        }

        let simnet: Simnet
        let client: HTTPClient
        private let trigger = Mutex<Trigger?>(nil)
        private let done = Mutex(false)

        init(simnet: Simnet, client: HTTPClient) {
            self.simnet = simnet
            self.client = client
        }

        var fired: Bool { done.withLock { $0 } }

        func afterNext(_ address: String, details: String, _ action: @escaping @Sendable () async throws -> Void) {
            trigger.withLock { $0 = Trigger(path: "/api/v2/address/\(address)", details: details, action: action) }
        }

        func respond(to request: Request, context: Context) async throws -> Response {
            var outgoing = HTTPClientRequest(url: simnet.baseURL + request.uri.description)
            outgoing.method = .GET
            let reply = try await client.execute(outgoing, timeout: .seconds(30))
            let body = try await reply.body.collect(upTo: 16 << 20)
            let fire = trigger.withLock { trigger -> Trigger? in
                guard let armed = trigger, request.uri.path == armed.path,
                    request.uri.query?.contains("details=\(armed.details)") == true
                else { return nil }
                trigger = nil
                return armed
            }
            if let fire {
                try await fire.action()
                done.withLock { $0 = true }
            }
            return Response(
                status: HTTPResponse.Status(code: Int(reply.status.code)),
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: body)
            )
        }
    }
}

import AsyncHTTPClient
import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherSimnet
import WatcherStorage
import WatcherTesting

@testable import WatcherApp

/// Every watch shape alone, as a new user writes it, run by the real runtime against the simnet on the wall clock
/// while blocks are mined, payments made and the chain reorganised. Before the reducers, the first config most
/// people write (one `address` watch) trapped on the first new block.
@Suite(.serialized)
struct WatchShapeTests {
    static let followed = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"

    /// A quiet simnet: only the tests' payments move followed addresses.
    static let quiet = SimnetConfiguration(
        chain: ChainParameters(seed: 9, txsPerBlock: 1, mempoolTxsPerBlock: 0, fundedAddressCount: 20)
    )

    static func config(_ simnet: Simnet, _ data: String, watches: String, extraProviders: String = "") throws
        -> WatcherConfig
    {
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "\(simnet.baseURL)", "timeout": "2s"},
                            "rateLimit": {"requests": 6000, "per": "1m", "burst": 100, "concurrency": 4}}\(extraProviders)],
             "watches": \(watches),
             "sinks": []}
            """
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(bytes: Array(json.utf8))
    }

    /// Every event in the log, parsed.
    static func events(_ store: Store) throws -> [JSONValue] {
        try store.read { try $0.events() }.compactMap { try? JSONValue.parse($0.body) }
    }

    /// Waits for an event of `type` matching `match`, and returns it.
    @discardableResult
    static func event(
        _ store: Store,
        _ type: String,
        timeout: Duration = .seconds(30),
        where match: @escaping @Sendable (JSONValue) -> Bool = { _ in true }
    ) async throws -> JSONValue {
        var found: JSONValue?
        do {
            try await eventually(timeout: timeout, type) {
                found = try events(store).last { $0["type"] == .string(type) && match($0["data"] ?? .null) }
                return found != nil
            }
        } catch let error as TimedOut {
            // What the log holds instead, so a failure on a loaded CI machine says what the engine did.
            throw TimedOut(what: "\(error.what) (the log holds: \(try logSummary(store)))")
        }
        return found ?? .null
    }

    /// The log's events as `type` lines, with the provider and reason of `provider.*` events and the txid and
    /// block height of payments: what a timed-out wait shows.
    static func logSummary(_ store: Store) throws -> String {
        let lines = try events(store).map { event -> String in
            let data = event["data"] ?? .null
            let details = ["provider", "reason", "txid", "blockHeight", "outcome"].compactMap { key -> String? in
                switch data[key] {
                case .string(let text)?, .number(let text)?: return "\(key)=\(text)"
                default: return nil
                }
            }
            let time = event["time"]?.stringValue.map { "\($0) " } ?? ""
            return time + ([event["type"]?.stringValue ?? "?"] + details).joined(separator: " ")
        }
        return lines.isEmpty ? "no events" : lines.joined(separator: "; ")
    }

    static func has(_ key: String, _ value: String) -> @Sendable (JSONValue) -> Bool {
        { $0[key] == .string(value) }
    }

    @Test func anAddressWatchAloneFollowsAPaymentThroughAReorg() async throws {
        try await Harness.withData(Self.quiet) { simnet, client, data in
            let config = try Self.config(
                simnet,
                data,
                watches:
                    #"[{"id": "wallet", "type": "address", "providers": ["bb"], "every": "1s", "addresses": ["\#(Self.followed)"]}]"#
            )
            try await EngineIntegrationTests.running(config, client: client) { store in
                try await eventually("the baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: Self.followed)?.summary } != nil
                }
                let txid = try await simnet.pay(to: Self.followed, amountSat: 50_000)
                try await Self.event(store, "address.tx.unconfirmed", where: Self.has("txid", txid))
                _ = try await simnet.mine(count: 1)
                try await Self.event(store, "address.tx.confirmed", where: Self.has("txid", txid))
                _ = try await simnet.mine(count: 2)
                try await Self.event(store, "address.tx.confirmations") {
                    $0["txid"] == .string(txid) && $0["confirmations"] == .number("3")
                }
                _ = try await simnet.reorg(depth: 3)
                try await Self.event(store, "address.tx.reverted", where: Self.has("txid", txid))
                _ = try await simnet.mine(count: 1)
                // Wherever the reorg put the payment, the log ends up saying so.
                try await eventually("the payment's fate to be announced") {
                    let model = await simnet.chain()
                    if let location = model.location(of: txid), let block = model.block(height: location.height) {
                        return try Self.events(store).contains {
                            $0["type"] == .string("address.tx.confirmed")
                                && $0["data"]?["blockHash"] == .string(block.hash)
                        }
                    }
                    if model.transaction(txid) == nil {
                        return try Self.events(store).contains {
                            $0["type"] == .string("address.tx.replaced") && $0["data"]?["txid"] == .string(txid)
                        }
                    }
                    return true
                }
                let tip = await simnet.tip()
                try await eventually("the tip to follow the simnet") {
                    try store.read { try $0.tip(chain: "btc") }?.hash == tip.hash
                }
            }
        }
    }

    @Test func aBlocksWatchWithoutBackfillSurvivesARestartThatMissedBlocks() async throws {
        try await Harness.withData(Self.quiet) { simnet, client, data in
            let config = try Self.config(
                simnet,
                data,
                watches: #"[{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s", "maxBackfill": 0}]"#
            )
            let start = await simnet.tip().height
            try await EngineIntegrationTests.running(config, client: client) { store in
                try await Self.event(store, "block.new", where: { $0["height"] == .number("\(start)") })
                _ = try await simnet.mine(count: 1)
                try await Self.event(store, "block.new", where: { $0["height"] == .number("\(start + 1)") })
            }
            _ = try await simnet.mine(count: 3)
            try await EngineIntegrationTests.running(config, client: client) { store in
                try await Self.event(store, "block.new", where: { $0["height"] == .number("\(start + 4)") })
                let heights = try Self.events(store).filter { $0["type"] == .string("block.new") }.compactMap {
                    $0["data"]?["height"]
                }
                #expect(heights == [.number("\(start)"), .number("\(start + 1)"), .number("\(start + 4)")])
                // The missed blocks are not announced, but their headers are fetched for display (the recent 20).
                try await eventually("the missed headers stored for display") {
                    try store.read { try $0.recentHeaders(chain: "btc", limit: 5) }.map(\.height)
                        == Array(start...(start + 4)).reversed()
                }
                _ = try await simnet.reorg(depth: 2)
                _ = try await simnet.mine(count: 1)
                let reorg = try await Self.event(store, "block.reorged")
                // Block start+2 was never announced (maxBackfill 0), but its header was stored for display: the
                // fork walk finds the real fork.
                #expect(reorg["data"]?["forkHeight"] == .number("\(start + 2)"))
                #expect(reorg["data"]?["depth"] == .number("2"))
                let orphaned = reorg["data"]?["orphaned"]?.arrayValue?.compactMap { $0["height"] }
                #expect(orphaned == [.number("\(start + 3)"), .number("\(start + 4)")])
            }
        }
    }

    @Test func accountsFollowedFromTheCLIWorkWithNoWatches() async throws {
        try await Harness.withData(Self.quiet) { simnet, client, data in
            let config = try Self.config(simnet, data, watches: "[]")
            let store = try Store(path: data)
            try await store.write {
                try $0.putAccount(Account(chain: "btc", address: Self.followed, label: "shop", addedAt: Date()))
            }
            await store.close()
            let settings = Engine.Settings(accountsInterval: .seconds(1))
            try await EngineIntegrationTests.running(config, client: client, settings: settings) { store in
                try await eventually("the baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: Self.followed)?.summary } != nil
                }
                let txid = try await simnet.pay(to: Self.followed, amountSat: 70_000)
                let seen = try await Self.event(store, "address.tx.unconfirmed", where: Self.has("txid", txid))
                #expect(seen["source"] == .string("watcher/accounts"))
                #expect(seen["data"]?["label"] == .string("shop"))
                _ = try await simnet.mine(count: 1)
                try await Self.event(store, "address.tx.confirmations", where: Self.has("txid", txid))
            }
        }
    }

    @Test func aTxWatchAloneReportsAReorgAfterItsLastThreshold() async throws {
        try await Harness.withData(Self.quiet) { simnet, client, data in
            let txid = try await simnet.pay(to: Self.followed, amountSat: 90_000)
            let config = try Self.config(
                simnet,
                data,
                watches: #"[{"id": "pay", "type": "tx", "providers": ["bb"], "every": "1s", "txid": "\#(txid)"}]"#
            )
            try await EngineIntegrationTests.running(config, client: client) { store in
                _ = try await simnet.mine(count: 1)
                try await Self.event(store, "tx.confirmations", where: { $0["confirmations"] == .number("1") })
                _ = try await simnet.mine(count: 5)
                try await Self.event(store, "tx.confirmations", where: { $0["confirmations"] == .number("6") })
                _ = try await simnet.reorg(depth: 6)
                let reverted = try await Self.event(store, "tx.reverted")
                #expect(reverted["subject"] == .string(txid))
            }
        }
    }

    @Test func aPriceWatchAloneAnnouncesACrossing() async throws {
        try await Harness.withData(Self.quiet) { simnet, client, data in
            _ = await simnet.setPrices([.usd: 90_000])
            let config = try Self.config(
                simnet,
                data,
                watches:
                    #"[{"id": "px", "type": "price", "providers": ["cd"], "every": "1s", "currency": "USD", "above": [100000]}]"#,
                extraProviders: #", {"id": "cd", "type": "coindesk", "options": {"url": "\#(simnet.baseURL)"}}"#
            )
            try await EngineIntegrationTests.running(config, client: client) { store in
                try await eventually("a first price") { try store.read { try $0.price(currency: "USD") } != nil }
                _ = await simnet.setPrices([.usd: 101_000])
                let crossed = try await Self.event(store, "price.threshold.crossed")
                #expect(crossed["data"]?["direction"] == .string("above"))
            }
        }
    }
}

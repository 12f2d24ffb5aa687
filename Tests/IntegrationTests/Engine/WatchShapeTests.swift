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

    @Test func anAddressWatchAloneFollowsAPaymentThroughAReorg() async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let config = try EngineHarness.config(
                simnet,
                data,
                watches:
                    #"[{"id": "wallet", "type": "address", "providers": ["bb"], "every": "1s", "addresses": ["\#(EngineHarness.followed)"]}]"#
            )
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("the baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: EngineHarness.followed)?.summary }
                        != nil
                }
                let txid = try await simnet.pay(to: EngineHarness.followed, amountSat: 50_000)
                try await EngineHarness.event(store, "address.tx.unconfirmed", where: EngineHarness.has("txid", txid))
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(store, "address.tx.confirmed", where: EngineHarness.has("txid", txid))
                _ = try await simnet.mine(count: 2)
                try await EngineHarness.event(store, "address.tx.confirmations") {
                    $0["txid"] == .string(txid) && $0["confirmations"] == .number("3")
                }
                _ = try await simnet.reorg(depth: 3)
                try await EngineHarness.event(store, "address.tx.reverted", where: EngineHarness.has("txid", txid))
                _ = try await simnet.mine(count: 1)
                // Wherever the reorg put the payment, the log ends up saying so.
                try await eventually("the payment's fate to be announced") {
                    let model = await simnet.chain()
                    if let location = model.location(of: txid), let block = model.block(height: location.height) {
                        return try EngineHarness.events(store).contains {
                            $0["type"] == .string("address.tx.confirmed")
                                && $0["data"]?["blockHash"] == .string(block.hash)
                        }
                    }
                    if model.transaction(txid) == nil {
                        return try EngineHarness.events(store).contains {
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
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let config = try EngineHarness.config(
                simnet,
                data,
                watches: #"[{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s", "maxBackfill": 0}]"#
            )
            let start = await simnet.tip().height
            try await EngineHarness.running(config, client: client) { store in
                try await EngineHarness.event(store, "block.new", where: { $0["height"] == .number("\(start)") })
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(store, "block.new", where: { $0["height"] == .number("\(start + 1)") })
            }
            _ = try await simnet.mine(count: 3)
            try await EngineHarness.running(config, client: client) { store in
                try await EngineHarness.event(store, "block.new", where: { $0["height"] == .number("\(start + 4)") })
                let heights = try EngineHarness.events(store).filter { $0["type"] == .string("block.new") }.compactMap {
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
                let reorg = try await EngineHarness.event(store, "block.reorged")
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
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let config = try EngineHarness.config(simnet, data, watches: "[]")
            let store = try Store(path: data)
            try await store.write {
                try $0.putAccount(
                    Account(chain: "btc", address: EngineHarness.followed, label: "shop", addedAt: Date())
                )
            }
            await store.close()
            let settings = Engine.Settings(accountsInterval: .seconds(1))
            try await EngineHarness.running(config, client: client, settings: settings) { store in
                try await eventually("the baseline") {
                    try store.read { try $0.addressState(chain: "btc", address: EngineHarness.followed)?.summary }
                        != nil
                }
                let txid = try await simnet.pay(to: EngineHarness.followed, amountSat: 70_000)
                let seen = try await EngineHarness.event(
                    store,
                    "address.tx.unconfirmed",
                    where: EngineHarness.has("txid", txid)
                )
                #expect(seen["source"] == .string("watcher/accounts"))
                #expect(seen["data"]?["label"] == .string("shop"))
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(store, "address.tx.confirmations", where: EngineHarness.has("txid", txid))
            }
        }
    }

    @Test func aTxWatchAloneReportsAReorgAfterItsLastThreshold() async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let txid = try await simnet.pay(to: EngineHarness.followed, amountSat: 90_000)
            let config = try EngineHarness.config(
                simnet,
                data,
                watches: #"[{"id": "pay", "type": "tx", "providers": ["bb"], "every": "1s", "txid": "\#(txid)"}]"#
            )
            try await EngineHarness.running(config, client: client) { store in
                _ = try await simnet.mine(count: 1)
                try await EngineHarness.event(store, "tx.confirmations", where: { $0["confirmations"] == .number("1") })
                _ = try await simnet.mine(count: 5)
                try await EngineHarness.event(store, "tx.confirmations", where: { $0["confirmations"] == .number("6") })
                _ = try await simnet.reorg(depth: 6)
                let reverted = try await EngineHarness.event(store, "tx.reverted")
                #expect(reverted["subject"] == .string(txid))
            }
        }
    }

    @Test func aPriceWatchAloneAnnouncesACrossing() async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            _ = await simnet.setPrices([.usd: 90_000])
            let config = try EngineHarness.config(
                simnet,
                data,
                watches:
                    #"[{"id": "px", "type": "price", "providers": ["cd"], "every": "1s", "currency": "USD", "above": [100000]}]"#,
                extraProviders: #", {"id": "cd", "type": "coindesk", "options": {"url": "\#(simnet.baseURL)"}}"#
            )
            try await EngineHarness.running(config, client: client) { store in
                try await eventually("a first price") { try store.read { try $0.price(currency: "USD") } != nil }
                _ = await simnet.setPrices([.usd: 101_000])
                let crossed = try await EngineHarness.event(store, "price.threshold.crossed")
                #expect(crossed["data"]?["direction"] == .string("above"))
            }
        }
    }
}

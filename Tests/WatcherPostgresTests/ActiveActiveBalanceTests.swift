import Foundation
import PostgresNIO
import Testing
import WatcherCore
import WatcherJSON
import WatcherStorage
import WatcherTesting

@testable import WatcherSimnet

/// Two `watcher run` processes on one table, one polling its addresses every second and the other every six, with
/// payments and spends paced between their polls: the first sees each payment in the mempool, the second mostly
/// only in its block. `address.balance.changed` is a fact of the chain, so both announce the same steps with the
/// same bodies, the table holds one row per step, and the steps of each address add up to its balance.
@Suite("Postgres active-active balances", .serialized, .timeLimit(.minutes(5)))
struct ActiveActiveBalanceTests {
    @Test func twoInstancesPollingAtDifferentMomentsStoreOneRowPerBalanceChange() async throws {
        var configuration = SimnetConfiguration(seed: 25, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 25, txsPerBlock: 3, mempoolTxsPerBlock: 0, fundedAddressCount: 20)
        var random = SplitMixRandom(seed: 2_025)
        // Fresh addresses: no history before the watchers' first look, so the steps add up to the whole balance.
        let followed = [SimAddress.Kind.p2wpkh, .p2tr, .p2pkh].map { SimAddress.random($0, using: &random).string }
        let outside = SimAddress.random(.p2wpkh, using: &random).string
        let root = NSTemporaryDirectory() + "watcher-aab-\(UUID().uuidString.prefix(8))"
        let data = [root + "/a", root + "/b"]
        for path in data { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await withCluster { cluster in
            let simnet = try await Simnet.start(configuration)
            do {
                let configs = data.map { "\($0)/watcher.json" }
                for (path, (directory, every)) in zip(configs, zip(data, ["1s", "6s"])) {
                    let text = Self.configText(simnet.baseURL, directory, followed, every: every, port: cluster.port)
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                }
                let children = try configs.map(ActiveActiveTests.start)
                for directory in data { try await ActiveActiveTests.waitForBaseline(directory, followed) }
                let fast = try await ActiveActiveTests.waitForStore(data[0])
                defer { fast.environment.close() }
                func fastLogged(_ type: String, _ txid: String) throws -> Bool {
                    try fast.read { txn in
                        try txn.events(from: 0).contains {
                            $0.type == type && String(decoding: $0.body, as: UTF8.self).contains(txid)
                        }
                    }
                }
                // Payments in, then spends out of followed addresses (one to another followed address), each
                // mined once the fast instance has seen it in the mempool.
                var txids: [String] = []
                for iteration in 0..<7 {
                    let txid: String
                    switch iteration {
                    case 4: txid = try await simnet.pay(to: outside, amountSat: 12_000, from: followed[0])
                    case 5: txid = try await simnet.pay(to: followed[2], amountSat: 8_000, from: followed[1])
                    default:
                        txid = try await simnet.pay(to: followed[iteration % 3], amountSat: 40_000 + Int64(iteration))
                    }
                    txids.append(txid)
                    try await eventually(timeout: .seconds(60), "the fast instance to see \(txid) in the mempool") {
                        try fastLogged("address.tx.unconfirmed", txid)
                    }
                    try await simnet.mine(count: 1)
                    try await eventually(timeout: .seconds(60), "the fast instance to see \(txid) confirmed") {
                        try fastLogged("address.tx.confirmed", txid)
                    }
                }
                // One more payment left in the mempool: the unconfirmed balance counts too.
                txids.append(try await simnet.pay(to: followed[1], amountSat: 5_000))
                try await eventually(timeout: .seconds(60), "the fast instance to see the last payment") {
                    try fastLogged("address.tx.unconfirmed", txids.last ?? "")
                }
                let truths = Dictionary(uniqueKeysWithValues: await simnet.addresses().map { ($0.address, $0) })
                let tip = await simnet.tip()
                let slow = try await ActiveActiveTests.waitForStore(data[1])
                defer { slow.environment.close() }
                let stores = [fast, slow]
                try await eventually(timeout: .seconds(120), "both instances to catch up and deliver everything") {
                    try stores.allSatisfy { store in
                        try store.read { txn in
                            let balances = try followed.allSatisfy { address in
                                let summary = try txn.addressState(chain: "btc", address: address)?.summary
                                let truth = truths[address]
                                return summary?.balanceSat == truth?.confirmedBalanceSat
                                    && summary?.unconfirmedBalanceSat == truth?.unconfirmedBalanceSat
                            }
                            return try txn.tip(chain: "btc")?.hash == tip.hash && balances
                                && (try txn.cursors()["db"] ?? 0) == (try txn.lastEventSeq())
                        }
                    }
                }
                for child in children { try await WatcherProcess.stop(child) }
                let logs = try stores.map { store in
                    try store.read { txn in try txn.events(from: 0).filter { $0.type == "address.balance.changed" } }
                }
                let rows = try await SQL.with(cluster) { sql in
                    try await sql.strings(
                        "select data::text from watcher_events where type = 'address.balance.changed' order by id"
                    )
                }
                let steps = try rows.map { try JSONValue.parse(Array($0.utf8)) }
                // One row per step: address, txid, state and block.
                let keys = steps.map { step in
                    ["address", "txid", "state", "blockHash"].map { step[$0]?.serialized() ?? "-" }.joined(
                        separator: " "
                    )
                }
                #expect(Set(keys).count == keys.count, "a balance step stored twice: \(keys)")
                // Both instances announced the same steps with the same data, whatever each saw of the mempool.
                #expect(Set(logs[0].map(\.id)) == Set(logs[1].map(\.id)))
                let slowBodies = Dictionary(uniqueKeysWithValues: logs[1].map { ($0.id, $0.body) })
                for event in logs[0] {
                    let mine = try JSONValue.parse(event.body)["data"]
                    let theirs = try slowBodies[event.id].map { try JSONValue.parse($0)["data"] }
                    #expect(mine == theirs, "\(event.id): the instances disagree on the step")
                }
                #expect(Set(rows).count == logs[0].count)
                // The slow instance missed mempool stages the fast one saw: the pacing did what it was for.
                let slowUnconfirmed = try slow.read { txn in
                    try txn.events(from: 0).filter { $0.type == "address.tx.unconfirmed" }.count
                }
                #expect(slowUnconfirmed < txids.count, "the slow instance saw every payment in the mempool")
                // The steps of each address add up to its balances.
                for address in followed {
                    let mine = steps.filter { $0["address"] == .string(address) }
                    func sum(_ key: String) -> Int64 {
                        mine.reduce(0) { total, step in
                            guard case .number(let text)? = step[key] else { return total }
                            return total + (Int64(text) ?? 0)
                        }
                    }
                    let truth = try #require(truths[address])
                    #expect(sum("confirmedDeltaSat") == truth.confirmedBalanceSat, "\(address) confirmed")
                    #expect(sum("unconfirmedDeltaSat") == truth.unconfirmedBalanceSat, "\(address) unconfirmed")
                    #expect(sum("deltaSat") == truth.confirmedBalanceSat + truth.unconfirmedBalanceSat, "\(address)")
                }
                await simnet.shutdown()
            } catch {
                await simnet.shutdown()
                throw error
            }
        }
    }

    /// Polling only (`"websocket": false`): a stopped instance's socket keeps the pushes sent to it, so it would see
    /// the mempool stages after all, and the two instances must observe the chain differently.
    static func configText(_ baseURL: String, _ data: String, _ followed: [String], every: String, port: Int) -> String
    {
        let list = followed.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            {"storage": {"path": "\(data)/store"},
             "providers": [{"id": "bb", "type": "blockbook",
                            "options": {"url": "\(baseURL)", "timeout": "2s", "websocket": false},
                            "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}}],
             "watches": [
               {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
               {"id": "shop", "type": "address", "providers": ["bb"], "every": "\(every)", "addresses": [\(list)]}
             ],
             "sinks": [
               {"id": "db", "type": "postgres", "options": {
                 "url": "postgres://postgres:${PG_PASSWORD}@127.0.0.1:\(port)/postgres", "tls": "disable",
                 "batchSize": 10, "initialBackoff": "50ms", "maxBackoff": "300ms", "maxAttempts": 1000}}
             ]}
            """
    }
}

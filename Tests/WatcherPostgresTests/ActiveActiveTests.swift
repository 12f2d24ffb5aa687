import Foundation
import PostgresNIO
import Testing
import WatcherCore
import WatcherEngine
import WatcherRules
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// Two `watcher run` processes with the same watches and their own data directories deliver to one table while
/// the chain moves; one is SIGKILLed and restarted mid-run. The table ends with exactly one row per fact.
@Suite("Postgres active-active", .serialized, .timeLimit(.minutes(5)))
struct ActiveActiveTests {
    static func start(_ config: String) throws -> ChildProcess {
        try WatcherProcess.daemon(config: config, environment: ["PG_PASSWORD": PostgresCluster.password])
    }

    @Test func twoInstancesStoreEachFactOnceWithOneKilledAndRestarted() async throws {
        var configuration = SimnetConfiguration(seed: 15, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 15, txsPerBlock: 4, mempoolTxsPerBlock: 1, fundedAddressCount: 40)
        let root = NSTemporaryDirectory() + "watcher-aa-\(UUID().uuidString.prefix(8))"
        let data = [root + "/a", root + "/b"]
        for path in data { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await withCluster { cluster in
            let simnet = try await Simnet.start(configuration)
            do {
                let followed = Array(await simnet.addresses().filter(\.funded).prefix(3).map(\.address))
                let configs = data.map { "\($0)/watcher.json" }
                for (path, directory) in zip(configs, data) {
                    let text = Self.configText(simnet.baseURL, directory, followed, port: cluster.port)
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                }
                var children = try configs.map(Self.start)
                // Facts before the first observation are each instance's baseline: let both see the chain first.
                for directory in data { try await Self.waitForBaseline(directory, followed) }
                var mined: [BlockRef] = []
                var payments: [(txid: String, address: String)] = []
                var random = SplitMixRandom(seed: 15)
                for iteration in 0..<6 {
                    let address = followed[iteration % 3]
                    payments.append(
                        (try await simnet.pay(to: address, amountSat: 20_000 + Int64(iteration)), address)
                    )
                    try await Task.sleep(for: .milliseconds(200 + Int64(random.next() % 600)))
                    mined += try await simnet.mine(count: 1)
                    try await Task.sleep(for: .milliseconds(Int64(random.next() % 600)))
                    if iteration == 1 { try await WatcherProcess.stop(children[1], signal: SIGKILL) }
                    if iteration == 3 { children[1] = try Self.start(configs[1]) }
                }
                mined += try await simnet.mine(count: 1)
                let stores = try await data.asyncMap(Self.waitForStore)
                defer { for store in stores { store.environment.close() } }
                // Both instances catch up with the chain and deliver their whole log.
                let tip = await simnet.tip()
                try await eventually(timeout: .seconds(120), "both instances to deliver everything") {
                    try stores.allSatisfy { store in
                        try store.read { txn in
                            try txn.tip(chain: "btc")?.hash == tip.hash
                                && (try txn.cursors()["db"] ?? 0) == (try txn.lastEventSeq())
                        }
                    }
                }
                // A payment's confirmation comes from its address job, which on a loaded machine may commit after the
                // tip job stored the last block (a gate run read the table first: no row for one payment). Wait for
                // every payment's confirmed row too; the exact counts below are unchanged.
                let paid = payments
                try await eventually(timeout: .seconds(120), "every payment's confirmation in the table") {
                    let confirmed = try await SQL.with(cluster) { sql in
                        try await sql.strings(
                            "select data::text from watcher_events where type = 'address.tx.confirmed'"
                        )
                    }
                    return paid.allSatisfy { txid, address in
                        confirmed.contains { $0.contains(txid) && $0.contains(address) }
                    }
                }
                for child in children { try await WatcherProcess.stop(child) }
                let logs = try stores.map { store in try store.read { try $0.events(from: 0).map(\.id) } }
                let (rows, distinct, ids) = try await SQL.with(cluster) { sql in
                    (
                        try await sql.count("watcher_events"),
                        try await sql.int("select count(distinct id)::int8 from watcher_events"),
                        Set(try await sql.strings("select id from watcher_events"))
                    )
                }
                #expect(rows == distinct)
                #expect(ids == Set(logs[0]).union(logs[1]), "the table holds exactly the events of both logs")
                for block in mined {
                    let id = EventBuilder.id(type: "block.new", fact: ["btc", "\(block.height)", block.hash])
                    #expect(ids.contains(id), "block \(block.height) missing")
                    #expect(logs[0].contains(id), "instance A missed block \(block.height)")
                }
                let confirmed = try await SQL.with(cluster) { sql in
                    try await sql.strings("select data::text from watcher_events where type = 'address.tx.confirmed'")
                }
                // One row per payment and followed address it touches (the simnet may fund a payment from another
                // followed address, which then has its own row for the spend).
                for (txid, address) in payments {
                    let rows = confirmed.filter { $0.contains(txid) && $0.contains(address) }
                    #expect(rows.count == 1, "payment \(txid) to \(address): one confirmed row, got \(rows)")
                }
                // Chain facts are the same on both instances: most rows were offered twice and stored once.
                let shared = Set(logs[0]).intersection(logs[1])
                #expect(shared.count >= mined.count)
                await simnet.shutdown()
            } catch {
                await simnet.shutdown()
                throw error
            }
        }
    }

    static func waitForStore(_ data: String) async throws -> Store {
        try await eventuallyValue(timeout: .seconds(60), "the store in \(data)") {
            try? Store(path: data + "/store", options: .init(readOnly: true))
        }
    }

    static func waitForBaseline(_ data: String, _ followed: [String]) async throws {
        let store = try await waitForStore(data)
        defer { store.environment.close() }
        try await eventually(timeout: .seconds(60), "the baseline in \(data)") {
            try store.read { txn in
                try txn.tip(chain: "btc") != nil
                    && followed.allSatisfy { try txn.addressState(chain: "btc", address: $0)?.summary != nil }
            }
        }
    }

    static func configText(_ baseURL: String, _ data: String, _ followed: [String], port: Int) -> String {
        let list = followed.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            {"storage": {"path": "\(data)/store"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "\(baseURL)", "timeout": "2s"},
                            "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}}],
             "watches": [
               {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
               {"id": "wallet", "type": "address", "providers": ["bb"], "every": "1s", "addresses": [\(list)]}
             ],
             "sinks": [
               {"id": "db", "type": "postgres", "options": {
                 "url": "postgres://postgres:${PG_PASSWORD}@127.0.0.1:\(port)/postgres", "tls": "disable",
                 "batchSize": 10, "initialBackoff": "50ms", "maxBackoff": "300ms", "maxAttempts": 1000}}
             ]}
            """
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}

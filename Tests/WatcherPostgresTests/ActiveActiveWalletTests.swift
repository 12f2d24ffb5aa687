import Foundation
import PostgresNIO
import Testing
import WatcherCore
import WatcherJSON
import WatcherStorage
import WatcherTesting

@testable import WatcherSimnet

/// Two `watcher run` processes on one table following one wallet (`poll`), one every second and the other every
/// six, the second stopped (`SIGSTOP`) while the payments are made and mined, so it finds in blocks what the first
/// saw in the mempool: `wallet.balance.changed` is a fact of the chain, one row per step of each wallet transaction,
/// the same on both instances, and the steps add up to the wallet's balance on the simnet. (Paced by the six-second
/// interval alone, the second instance once saw every payment in the mempool too, and the test proved nothing.)
@Suite("Postgres active-active wallet", .serialized, .timeLimit(.minutes(5)))
struct ActiveActiveWalletTests {
    /// BIP84's account (Tests/WatcherAppTests/Fixtures/bip84_vectors.json), gap 3.
    static let descriptor =
        "wpkh([73c5da0a/84h/0h/0h]xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V/<0;1>/*)#qf45pmyh"
    /// Receive 0 and 1, change 0 of that account.
    static let receive = ["bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g"]
    static let change = "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el"

    @Test func twoInstancesStoreOneRowPerWalletStep() async throws {
        var configuration = SimnetConfiguration(seed: 26, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 26, txsPerBlock: 3, mempoolTxsPerBlock: 0, fundedAddressCount: 20)
        var random = SplitMixRandom(seed: 2_026)
        let outside = SimAddress.random(.p2wpkh, using: &random).string
        let ours = Self.receive + [Self.change]
        let root = NSTemporaryDirectory() + "watcher-aaw-\(UUID().uuidString.prefix(8))"
        let data = [root + "/a", root + "/b"]
        for path in data { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await withCluster { cluster in
            let simnet = try await Simnet.start(configuration)
            do {
                let configs = data.map { "\($0)/watcher.json" }
                for (path, (directory, every)) in zip(configs, zip(data, ["1s", "6s"])) {
                    let text = Self.configText(simnet.baseURL, directory, every: every, port: cluster.port)
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                }
                let children = try configs.map(ActiveActiveTests.start)
                defer {
                    // A failure leaves no watcher behind, stopped or running.
                    for child in children where child.isRunning {
                        kill(child.processIdentifier, SIGCONT)
                        kill(child.processIdentifier, SIGKILL)
                    }
                }
                for directory in data {
                    let store = try await ActiveActiveTests.waitForStore(directory)
                    defer { store.environment.close() }
                    try await eventually(timeout: .seconds(60), "the wallet's first look in \(directory)") {
                        try store.read { txn in
                            let state = try txn.walletState(chain: "btc", wallet: "shop")
                            return (state?.receive.checkedUpTo ?? -1) >= 1 && (state?.change.checkedUpTo ?? -1) >= 0
                        }
                    }
                }
                let fast = try await ActiveActiveTests.waitForStore(data[0])
                defer { fast.environment.close() }
                func fastLogged(_ type: String, _ txid: String) throws -> Bool {
                    try fast.read { txn in
                        try txn.events(from: 0).contains {
                            $0.type == type && String(decoding: $0.body, as: UTF8.self).contains(txid)
                        }
                    }
                }
                // Payments in, a spend out with its change to the wallet, each mined once the fast instance saw
                // it in the mempool; a last payment stays in the mempool. The slow instance sleeps meanwhile.
                kill(children[1].processIdentifier, SIGSTOP)
                for iteration in 0..<5 {
                    let txid: String
                    switch iteration {
                    case 3:
                        txid = try await simnet.pay(
                            to: outside,
                            amountSat: 30_000,
                            from: Self.receive[0],
                            change: Self.change
                        )
                    default:
                        txid = try await simnet.pay(
                            to: Self.receive[iteration % 2],
                            amountSat: 50_000 + Int64(iteration)
                        )
                    }
                    try await eventually(timeout: .seconds(60), "the fast instance to see \(txid) in the mempool") {
                        try fastLogged("address.tx.unconfirmed", txid)
                    }
                    if iteration < 4 { try await simnet.mine(count: 1) }
                }
                kill(children[1].processIdentifier, SIGCONT)
                let truths = await simnet.addresses().filter { ours.contains($0.address) }
                let confirmed = truths.reduce(Int64(0)) { $0 + $1.confirmedBalanceSat }
                let unconfirmed = truths.reduce(Int64(0)) { $0 + $1.unconfirmedBalanceSat }
                let slow = try await ActiveActiveTests.waitForStore(data[1])
                defer { slow.environment.close() }
                let stores = [fast, slow]
                try await eventually(timeout: .seconds(120), "both instances to catch up and deliver everything") {
                    try stores.allSatisfy { store in
                        try store.read { txn in
                            let state = try txn.walletState(chain: "btc", wallet: "shop")
                            let delivered = try txn.cursors()["db"] ?? 0
                            let last = try txn.lastEventSeq()
                            return state?.balanceSat == confirmed && state?.unconfirmedSat == unconfirmed
                                && delivered == last
                        }
                    }
                }
                for child in children { try await WatcherProcess.stop(child) }
                let logs = try stores.map { store in
                    try store.read { txn in try txn.events(from: 0).filter { $0.type == "wallet.balance.changed" } }
                }
                let rows = try await SQL.with(cluster) { sql in
                    try await sql.strings(
                        "select data::text from watcher_events where type = 'wallet.balance.changed' order by id"
                    )
                }
                let steps = try rows.map { try JSONValue.parse(Array($0.utf8)) }
                let keys = steps.map { step in
                    ["txid", "state", "blockHash"].map { step[$0]?.serialized() ?? "-" }.joined(separator: " ")
                }
                #expect(Set(keys).count == keys.count, "a wallet step stored twice: \(keys)")
                #expect(Set(logs[0].map(\.id)) == Set(logs[1].map(\.id)))
                var agreed = Set(logs[0].map(\.id)) == Set(logs[1].map(\.id))
                let slowBodies = Dictionary(uniqueKeysWithValues: logs[1].map { ($0.id, $0.body) })
                for event in logs[0] {
                    let mine = try JSONValue.parse(event.body)["data"]
                    let theirs = try slowBodies[event.id].map { try JSONValue.parse($0)["data"] }
                    #expect(mine == theirs, "\(event.id): the instances disagree on the step")
                    agreed = agreed && mine == theirs
                }
                if !agreed { for (name, store) in zip(["fast", "slow"], stores) { try Self.printLog(name, store) } }
                #expect(rows.count == logs[0].count && !rows.isEmpty)
                // The slow instance missed mempool stages the fast one saw: the pacing did what it was for.
                let slowUnconfirmed = try slow.read { txn in
                    try txn.events(from: 0).filter { $0.type == "address.tx.unconfirmed" }.count
                }
                let fastUnconfirmed = try fast.read { txn in
                    try txn.events(from: 0).filter { $0.type == "address.tx.unconfirmed" }.count
                }
                #expect(slowUnconfirmed < fastUnconfirmed, "the slow instance saw every payment in the mempool")
                func sum(_ key: String) -> Int64 {
                    steps.reduce(0) { total, step in
                        guard case .number(let text)? = step[key] else { return total }
                        return total + (Int64(text) ?? 0)
                    }
                }
                #expect(sum("confirmedDeltaSat") == confirmed && sum("unconfirmedDeltaSat") == unconfirmed)
                #expect(confirmed > 0 && unconfirmed > 0)
                await simnet.shutdown()
            } catch {
                await simnet.shutdown()
                throw error
            }
        }
    }

    /// Each payment event and wallet step of `store`, one line each (printed when the instances disagree).
    static func printLog(_ name: String, _ store: Store) throws {
        for event in try store.read({ try $0.events(from: 0) }) {
            guard event.type.hasPrefix("address.tx") || event.type == "wallet.balance.changed",
                let data = try JSONValue.parse(event.body)["data"]
            else { continue }
            let fields = ["address", "txid", "state", "blockHeight", "deltaSat", "amountSat", "balanceSat"].compactMap {
                key in data[key].map { "\(key)=\($0.serialized())" }
            }
            print("\(name) #\(event.seq) \(event.type) \(fields.joined(separator: " "))")
        }
    }

    /// Polling only (`"websocket": false`): a stopped instance's socket keeps the pushes sent to it, so it would see
    /// the mempool stages after all, and the two instances must observe the chain differently.
    static func configText(_ baseURL: String, _ data: String, every: String, port: Int) -> String {
        """
        {"storage": {"path": "\(data)/store"},
         "providers": [{"id": "bb", "type": "blockbook",
                        "options": {"url": "\(baseURL)", "timeout": "2s", "websocket": false},
                        "rateLimit": {"requests": 6000, "per": "1m", "burst": 100}}],
         "watches": [
           {"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
           {"id": "shop", "type": "wallet", "providers": ["bb"], "every": "\(every)", "strategy": "poll",
            "descriptor": "\(descriptor)", "gap": 3, "label": "Shop"}
         ],
         "sinks": [
           {"id": "db", "type": "postgres", "options": {
             "url": "postgres://postgres:${PG_PASSWORD}@127.0.0.1:\(port)/postgres", "tls": "disable",
             "batchSize": 10, "initialBackoff": "50ms", "maxBackoff": "300ms", "maxAttempts": 1000}}
         ]}
        """
    }
}

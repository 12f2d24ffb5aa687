import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherStorage
import WatcherTesting

@testable import WatcherApp
@testable import WatcherSimnet

/// The engine on the simnet's Bitcoin Core face with the `zmq` hint, on the wall clock (serialized phase): with the
/// tip and the mempool polled every 30 s, a mempool payment to a followed (scanned) address is announced within a
/// second (`sequence` `A`) and its block's within seconds, and the events are the same as without ZMQ (polled every
/// 2 s); only the latency differs.
@Suite(.serialized)
struct ZMQEngineTests {
    struct Run: Sendable {
        var ids: Set<String>
        var blockLatency: Duration
        var paymentLatency: Duration
        /// From the payment entering the node's mempool to its `address.tx.unconfirmed`.
        var mempoolLatency: Duration
        var requestsPerBlock: Int
        /// The block's requests by method.
        var methods: [String: Int]
    }

    /// Starts the engine on a fresh simnet (seed 67) and follows one address by block scan; mines two warm-up
    /// blocks (after which the ZMQ subscription is surely live), then pays the address and mines the block measured.
    static func run(zmq: Bool, every: String, followedCount: Int = 1) async throws -> Run {
        var configuration = SimnetConfiguration(seed: 67, port: 0, blockInterval: nil)
        configuration.chain = ChainParameters(seed: 67, txsPerBlock: 50, fundedAddressCount: 10)
        configuration.zmq = zmq ? "tcp://127.0.0.1:*" : nil
        var rng = SeededGenerator(seed: 9_067)
        let followed = SimAddress.random(.p2wpkh, using: &rng).string
        let others = (1..<max(1, followedCount)).map { _ in "\"\(SimAddress.random(.p2wpkh, using: &rng).string)\"" }
        let list = (["\"\(followed)\""] + others).joined(separator: ",")
        let data = EngineHarness.dataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        return try await Harness.with(configuration) { harness in
            let simnet = harness.simnet
            // 20 blocks before the start, so the recent blocks shown fill with real blocks (no probe below the
            // first one) and can be waited for before counting.
            _ = try await simnet.mine(count: 20)
            let option = try simnet.zmqEndpoint.map { #", "zmq": "\#($0)""# } ?? (zmq ? { throw NoEndpoint() }() : "")
            let json = """
                {"storage": {"path": "\(data)"},
                 "providers": [{"id": "node", "type": "bitcoind",
                                "options": {"url": "\(simnet.baseURL)", "user": "watcher",
                                            "password": "${NODE_PASSWORD}", "timeout": "10s"\(option)}}],
                 "watches": [
                   {"id": "tip", "type": "blocks", "providers": ["node"], "every": "\(every)"},
                   {"id": "shop", "type": "address", "providers": ["node"], "every": "\(every)",
                    "addresses": [\(list)]}
                 ],
                 "sinks": []}
                """
            let config = try ConfigLoader(registry: .builtIn, environment: ["NODE_PASSWORD": "watcher"])
                .load(bytes: Array(json.utf8))
            #expect(JobPlan(config: config).jobs.contains { $0.work == .push(chain: "btc", addresses: 0) } == zmq)
            return try await EngineHarness.running(config, client: harness.client) { store in
                let start = await simnet.tip()
                try await EngineHarness.event(store, "block.new", timeout: .seconds(60)) {
                    $0["hash"] == .string(start.hash)
                }
                // Two warm-up blocks: the subscription may still be on its way at the first (a PUB socket drops what
                // it sends before), and the first message of each topic wakes the poll; then every counter runs on.
                for _ in 0..<2 {
                    let warmUp = try await simnet.mine(count: 1)
                    try await EngineHarness.event(store, "block.new", timeout: .seconds(60)) {
                        $0["hash"] == .string(warmUp[0].hash)
                    }
                }
                // The recent blocks shown are fetched from spare budget beside the tip job: done before counting.
                try await eventually(timeout: .seconds(60), "the 20 recent blocks stored for display") {
                    try store.read { try $0.recentHeaders(chain: "btc", limit: 20) }.count == 20
                }
                let paid = ContinuousClock.now
                let txid = try await simnet.pay(to: followed, amountSat: 67_000)
                try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(60)) {
                    $0["txid"] == .string(txid)
                }
                let mempoolLatency = ContinuousClock.now - paid
                let before = await simnet.stats().families[.bitcoind]
                let mined = try await simnet.mine(count: 1)
                let sent = ContinuousClock.now
                try await EngineHarness.event(store, "block.new", timeout: .seconds(60)) {
                    $0["hash"] == .string(mined[0].hash)
                }
                let blockLatency = ContinuousClock.now - sent
                try await EngineHarness.event(store, "address.tx.confirmed", timeout: .seconds(60)) {
                    $0["txid"] == .string(txid)
                }
                let paymentLatency = ContinuousClock.now - sent
                // The block's work may go on after its events (the tip job's last reads): the count is taken once the
                // node has seen no request for half a second (a measurement, not a synchronisation).
                var last = -1
                while true {
                    let now = await simnet.stats().families[.bitcoind]?.requests ?? 0
                    if now == last { break }
                    last = now
                    try await Task.sleep(for: .milliseconds(500))
                }
                let after = await simnet.stats().families[.bitcoind]
                let methods = (after?.endpoints ?? [:]).compactMapValues { $0 }
                    .merging((before?.endpoints ?? [:]).mapValues { -$0 }, uniquingKeysWith: +).filter { $0.value != 0 }
                let ids = Set(try EngineHarness.events(store).compactMap { $0["id"]?.stringValue })
                return Run(
                    ids: ids,
                    blockLatency: blockLatency,
                    paymentLatency: paymentLatency,
                    mempoolLatency: mempoolLatency,
                    requestsPerBlock: (after?.requests ?? 0) - (before?.requests ?? 0),
                    methods: methods
                )
            }
        }
    }

    struct NoEndpoint: Error {}

    /// Steady-state requests per block against the node, with the hint on: the tip poll and one block read, whatever
    /// the number of followed addresses (the block is matched locally).
    @Test func requestsPerBlockDoNotGrowWithTheFollowedAddresses() async throws {
        var counts: [Int: Int] = [:]
        for count in [100, 10_000, 100_000] {
            let run = try await Self.run(zmq: true, every: "30s", followedCount: count)
            print(
                "zmq: \(count) followed addresses: \(run.requestsPerBlock) requests for the block "
                    + "\(run.methods.sorted { $0.key < $1.key }), payment \(run.paymentLatency), "
                    + "mempool payment \(run.mempoolLatency)"
            )
            counts[count] = run.requestsPerBlock
        }
        // A tip poll more or less (a wake landing while the tip job runs: getblockchaininfo and getblockhash), or the
        // mempool's list read once per interval, is timing; growth with the addresses would be hundreds.
        let spread = (counts.values.max() ?? 0) - (counts.values.min() ?? 0)
        #expect(spread <= 3 && counts.values.allSatisfy { $0 <= 13 }, "\(counts)")
    }

    @Test func aBlocksPaymentIsAnnouncedLongBeforeThePollAndTheEventsAreTheSame() async throws {
        let hinted = try await Self.run(zmq: true, every: "30s")
        let polled = try await Self.run(zmq: false, every: "2s")
        print(
            "zmq: mempool payment \(hinted.mempoolLatency), block.new \(hinted.blockLatency), payment "
                + "\(hinted.paymentLatency), \(hinted.requestsPerBlock) requests; poll 2s: mempool payment "
                + "\(polled.mempoolLatency), block.new \(polled.blockLatency), payment \(polled.paymentLatency), "
                + "\(polled.requestsPerBlock) requests \(polled.methods.sorted { $0.key < $1.key })"
        )
        // The tip and the mempool are polled every 30 s: without the hint the payments would wait up to that long.
        #expect(hinted.mempoolLatency < .seconds(15), "\(hinted.mempoolLatency)")
        #expect(hinted.paymentLatency < .seconds(10), "\(hinted.paymentLatency)")
        // Polled every 2 s: within the interval, plus the round's own time on a loaded machine.
        #expect(polled.mempoolLatency < .seconds(10), "\(polled.mempoolLatency)")
        #expect(hinted.ids == polled.ids, "\(hinted.ids.symmetricDifference(polled.ids))")
        #expect(hinted.ids.count >= 4)
    }

    /// Issue 33, item 6 on the hint: with the tip and the mempool polled hourly, the replacement's `sequence` `A`
    /// alone reads it, and that read retracts the original (named, followed: it pays the address too) with no
    /// whole-list read (`getrawmempool`) and no block in between.
    @Test func aReplacementPushedBySequenceRetractsTheOriginalAtOnce() async throws {
        var configuration = NodeHarness.quiet
        configuration.zmq = "tcp://127.0.0.1:*"
        try await Harness.withData(configuration) { simnet, client, data in
            let endpoint = try #require(simnet.zmqEndpoint)
            let followed = EngineHarness.followed
            let json = """
                {"storage": {"path": "\(data)"},
                 "providers": [{"id": "node", "type": "bitcoind",
                                "options": {"url": "\(simnet.baseURL)", "user": "watcher",
                                            "password": "${NODE_PASSWORD}", "timeout": "10s", "zmq": "\(endpoint)"}}],
                 "watches": [{"id": "shop", "type": "address", "providers": ["node"], "every": "1h",
                              "addresses": ["\(followed)"]}],
                 "sinks": []}
                """
            let config = try ConfigLoader(registry: .builtIn, environment: ["NODE_PASSWORD": NodeHarness.password])
                .load(bytes: Array(json.utf8))
            try await EngineHarness.running(config, client: client) { store in
                let start = await simnet.tip()
                try await eventually(timeout: .seconds(60), "the first tip stored") {
                    try store.read { try $0.tip(chain: "btc") }?.hash == start.hash
                }
                // Two warm-up blocks: the subscription is live by the second.
                for _ in 0..<2 {
                    let warmUp = try await simnet.mine(count: 1)
                    try await eventually(timeout: .seconds(60), "a warm-up block stored") {
                        try store.read { try $0.tip(chain: "btc") }?.hash == warmUp[0].hash
                    }
                }
                let txid = try await simnet.pay(to: followed, amountSat: 20_000)
                try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(60)) {
                    $0["txid"] == .string(txid)
                }
                let lists = await simnet.stats().families[.bitcoind]?.endpoints["getrawmempool"] ?? 0
                let tip = await simnet.tip()
                let replacement = try await simnet.replace(txid, payTo: followed)
                let replaced = try await EngineHarness.event(store, "address.tx.replaced", timeout: .seconds(60)) {
                    $0["txid"] == .string(txid)
                }
                #expect(replaced["data"]?["replacedBy"] == .string(replacement), "\(replaced)")
                #expect(replaced["data"]?["replacementFollowed"] == .bool(true), "\(replaced)")
                try await EngineHarness.event(store, "address.tx.unconfirmed", timeout: .seconds(60)) {
                    $0["txid"] == .string(replacement)
                }
                #expect(await simnet.tip() == tip, "no block was needed")
                let after = await simnet.stats().families[.bitcoind]?.endpoints["getrawmempool"] ?? 0
                #expect(after == lists, "the list was read \(after - lists) more time(s): not the push alone")
            }
        }
    }
}

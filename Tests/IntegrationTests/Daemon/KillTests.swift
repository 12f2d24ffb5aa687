import Foundation
import Testing
import WatcherCore
import WatcherEngine
import WatcherRules
import WatcherSimnet
import WatcherStorage
import WatcherTesting

/// `watcher run` as a real child process, SIGKILLed at random moments of a busy run 20 times while a webhook
/// receiver goes up and down. Nothing is lost and the file sink holds no duplicates.
@Suite(.serialized)
struct KillTests {
    @Test func twentyKillsLoseNothingAndDuplicateNothing() async throws {
        let busy = ChainParameters(seed: 9, txsPerBlock: 4, mempoolTxsPerBlock: 1, fundedAddressCount: 60)
        let receiver = Receiver(secret: DaemonHarness.secret)
        try await Harness.withData(SimnetConfiguration(chain: busy)) { simnet, _, data in
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            let followed = Array(await simnet.addresses().filter(\.funded).prefix(3).map(\.address))
            try await receiver.serve { hook in
                let config = try DaemonConfig(
                    data: data,
                    simnetURL: simnet.baseURL,
                    addresses: followed,
                    sinks: [
                        DaemonConfig.webhook(
                            "hook",
                            url: hook,
                            secret: receiver.secret,
                            maxBackoff: "300ms",
                            maxAttempts: 1000
                        )
                    ]
                ).write()
                var random = SplitMixRandom(seed: 2026)
                var mined: [BlockRef] = []
                var payments: [String] = []
                for iteration in 0..<20 {
                    let child = try WatcherProcess.daemon(config: config)
                    if iteration == 0 {
                        // Facts that happen before the first observation are the baseline, never announced: let the
                        // first run see the chain and the addresses before the traffic starts.
                        let store = try await DaemonHarness.waitForStore(data)
                        try await eventually(timeout: .seconds(60), "the first baseline") {
                            try store.read { txn in
                                try txn.tip(chain: "btc") != nil
                                    && followed.allSatisfy {
                                        try txn.addressState(chain: "btc", address: $0)?.summary != nil
                                    }
                            }
                        }
                        await store.close()
                    }
                    // Busy: a payment and a block while the watcher runs, then a kill at a random moment.
                    payments.append(
                        try await simnet.pay(
                            to: followed[iteration % followed.count],
                            amountSat: 10_000 + Int64(iteration)
                        )
                    )
                    try await Task.sleep(for: .milliseconds(100 + Int64(random.next() % 900)))
                    mined += try await simnet.mine(count: 1)
                    try await Task.sleep(for: .milliseconds(Int64(random.next() % 700)))
                    try await WatcherProcess.stop(child, signal: SIGKILL)
                    receiver.setDown(random.next() % 3 == 0)
                }
                // Recovery: one last run, undisturbed, until every sink has caught up with the log.
                receiver.setDown(false)
                let child = try WatcherProcess.daemon(config: config)
                let store = try await DaemonHarness.waitForStore(data)
                // First the engine catches up with the chain: the tip and every followed address match the truth.
                try await eventually(timeout: .seconds(90), "the engine to catch up with the simnet") {
                    let tip = await simnet.tip()
                    let truths = Dictionary(await simnet.addresses().map { ($0.address, $0) }) { a, _ in a }
                    return try store.read { txn in
                        guard try txn.tip(chain: "btc")?.hash == tip.hash else { return false }
                        return try followed.allSatisfy { address in
                            let summary = try txn.addressState(chain: "btc", address: address)?.summary
                            return summary?.balanceSat == truths[address]?.confirmedBalanceSat
                                && summary?.txCount == truths[address]?.confirmedTxCount
                                && summary?.unconfirmedTxCount == truths[address]?.unconfirmedTxCount
                        }
                    }
                }
                // Then every sink catches up with the log.
                try await eventually(timeout: .seconds(90), "the sinks to catch up") {
                    let (log, cursors) = try store.read { (try $0.events(from: 0).map(\.id), try $0.cursors()) }
                    let last = try store.read { try $0.lastEventSeq() }
                    let fileIDs = DaemonHarness.fileIDsOrEmpty(data)
                    return cursors["file"] == last && cursors["hook"] == last && Set(fileIDs).isSuperset(of: log)
                        && Set(receiver.delivered.map(\.id)).isSuperset(of: log)
                }
                // Every block and every confirmed payment became an event.
                let log = try store.read { try $0.events(from: 0) }
                await store.close()
                #expect(try await WatcherProcess.stop(child) == 0)
                for block in mined {
                    #expect(
                        log.contains {
                            $0.id == EventBuilder.id(type: "block.new", fact: ["btc", "\(block.height)", block.hash])
                        },
                        "block \(block.height) missing"
                    )
                }
                let confirmed = log.filter { $0.type == "address.tx.confirmed" }.map {
                    String(decoding: $0.body, as: UTF8.self)
                }
                for txid in payments {
                    #expect(confirmed.contains { $0.contains(txid) }, "payment \(txid) never confirmed")
                }
                // The file holds each id exactly once; the receiver saw every id at least once.
                let fileIDs = DaemonHarness.fileIDsOrEmpty(data)
                #expect(
                    fileIDs.count == Set(fileIDs).count,
                    "\(fileIDs.count - Set(fileIDs).count) duplicate lines in the file sink"
                )
                #expect(Set(fileIDs) == Set(log.map(\.id)))
                #expect(Set(receiver.delivered.map(\.id)) == Set(log.map(\.id)))
                #expect(receiver.delivered.allSatisfy { $0.signatureValid })
            }
        }
    }

}

import AsyncHTTPClient
import Foundation
import Logging
import ServiceLifecycle
import Testing
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherPlugins
import WatcherRules
import WatcherSimnet
import WatcherStorage
import WatcherTesting

@testable import WatcherApp

/// The whole pipeline as `watcher run` wires it: simnet → adapters → scheduler → engine → LMDB log → file sink and
/// two signed webhooks on loopback, one of which fails its first 3 attempts.
@Suite(.serialized)
struct EndToEndTests {

    @Test func paymentConfirmationsAndReorgReachEverySinkInOrder() async throws {
        // A quiet chain: only our payment touches the followed address.
        let quiet = ChainParameters(seed: 5, txsPerBlock: 1, mempoolTxsPerBlock: 0, fundedAddressCount: 40)
        let healthy = Receiver(secret: DaemonHarness.secret)
        let flaky = Receiver(secret: DaemonHarness.secret, failFirst: 3)
        try await Harness.withData(SimnetConfiguration(chain: quiet)) { simnet, client, data in
            let followed = try #require(await simnet.addresses().first(where: \.funded)?.address)
            try await healthy.serve { healthyURL in
                try await flaky.serve { flakyURL in
                    let config = try DaemonConfig(
                        data: data,
                        simnetURL: simnet.baseURL,
                        addresses: ["bitcoin:\(followed)?label=Savings"],
                        confirmations: [1, 3, 6],
                        sinks: [
                            DaemonConfig.webhook(
                                "hook-a",
                                url: healthyURL,
                                secret: DaemonHarness.secret,
                                maxBackoff: "200ms"
                            ),
                            DaemonConfig.webhook(
                                "hook-b",
                                url: flakyURL,
                                secret: DaemonHarness.secret,
                                maxBackoff: "200ms"
                            ),
                        ]
                    ).load()
                    try await EngineHarness.running(config, client: client) { store in
                        try await Self.scenario(simnet: simnet, store: store, followed: followed, data: data) {
                            (healthy.delivered.map(\.id), flaky.delivered.map(\.id))
                        }
                    }
                }
            }
        }
        #expect(healthy.delivered.allSatisfy { $0.signatureValid })
        #expect(flaky.delivered.allSatisfy { $0.signatureValid })
        #expect(flaky.attempts >= flaky.delivered.count + 3)
    }

    static func logged(_ store: Store) throws -> [LoggedEvent] { try store.read { try $0.events(from: 0) } }

    static func scenario(
        simnet: Simnet,
        store: Store,
        followed: String,
        data: String,
        received: @Sendable () -> ([String], [String])
    ) async throws {
        // Baseline: the tip and the address are known before anything happens.
        try await eventually("the baseline") {
            try store.read { txn in
                try txn.tip(chain: "btc") != nil && txn.addressState(chain: "btc", address: followed)?.summary != nil
            }
        }
        let start = try logged(store).count
        let txid = try await simnet.pay(to: followed, amountSat: 150_000)
        try await eventually("the unconfirmed payment") {
            try logged(store).contains { $0.type == "address.tx.unconfirmed" }
        }
        var mined: [BlockRef] = []
        for _ in 0..<6 {
            mined += try await simnet.mine(count: 1)
            let hash = mined.last?.hash ?? ""
            try await eventually("block \(hash)") {
                try logged(store).contains {
                    $0.type == "block.new" && String(decoding: $0.body, as: UTF8.self).contains(hash)
                }
            }
        }
        let reorged = try await simnet.reorg(depth: 2)
        try await eventually("the reorg") { try logged(store).contains { $0.type == "block.reorged" } }
        try await eventually("the replacement blocks") {
            try logged(store).dropFirst(start).filter { $0.type == "block.new" }.count >= 8
        }

        // The log holds exactly the expected facts, in order.
        let confirmedIn = mined[0]
        func id(_ type: String, _ fact: [String]) -> String { EventBuilder.id(type: type, fact: fact) }
        var expected: [(String, String?)] = [
            ("address.tx.unconfirmed", id("address.tx.unconfirmed", ["btc", followed, txid])),
            ("address.balance.changed", nil),
        ]
        // The config's thresholds, 1, 3 and 6 confirmations, are reached with the 1st, 3rd and 6th mined block.
        for (index, block) in mined.enumerated() {
            expected.append(("block.new", id("block.new", ["btc", "\(block.height)", block.hash])))
            let confirmations = index + 1
            if [1, 3, 6].contains(confirmations) {
                let fact = ["btc", followed, txid, confirmedIn.hash, "\(confirmations)"]
                expected.append(("address.tx.confirmations", id("address.tx.confirmations", fact)))
            }
            if index == 0 {
                expected.append(
                    ("address.tx.confirmed", id("address.tx.confirmed", ["btc", followed, txid, confirmedIn.hash]))
                )
                expected.append(("address.balance.changed", nil))
            }
        }
        let orphaned = reorged.map(\.oldHash)
        let forkHeight = (reorged.map(\.height).min() ?? 0) - 1
        let newTip = reorged.max { $0.height < $1.height }?.newHash ?? ""
        expected.append(("block.reorged", id("block.reorged", ["btc", "\(forkHeight)"] + orphaned + [newTip])))
        for block in reorged.sorted(by: { $0.height < $1.height }) {
            expected.append(("block.new", id("block.new", ["btc", "\(block.height)", block.newHash])))
        }
        // The address job confirms in rounds of its own, which a loaded machine may run after the last block is
        // logged (a round that read before a block was committed is dropped and redone): wait for as many facts as
        // expected, then compare them exactly.
        try await eventually("every expected fact in the log") {
            try logged(store).dropFirst(start).count >= expected.count
        }
        let events = try logged(store).dropFirst(start)
        #expect(events.map(\.type).sorted() == expected.map(\.0).sorted(), "\(events.map(\.type))")
        for (type, expectedID) in expected {
            if let expectedID { #expect(events.contains { $0.id == expectedID }, "missing \(type) \(expectedID)") }
        }
        let order = events.map(\.id)
        let blockIDs = expected.filter { $0.0 == "block.new" }.compactMap(\.1)
        #expect(order.filter { blockIDs.contains($0) } == blockIDs, "blocks out of order")

        // Every sink gets every event exactly once, in log order.
        let all = try logged(store).map(\.id)
        try await eventually("every sink to catch up") {
            let (a, b) = received()
            let file = try DaemonHarness.fileIDs(data)
            return a == all && b == all && file == all
        }
    }

}

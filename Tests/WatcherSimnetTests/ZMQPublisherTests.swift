import Foundation
import Synchronization
import Testing
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting
import WatcherZMQ

/// The Bitcoin Core face's ZMQ publisher over real loopback TCP, read by the watcher's own subscriber.
@Suite("The simnet's ZMQ publisher")
struct ZMQPublisherTests {
    /// What a subscriber received, in order.
    final class Inbox: Sendable {
        private let messages = Mutex<[ZMQMessage]>([])
        func append(_ message: ZMQMessage) { messages.withLock { $0.append(message) } }
        func take() -> [ZMQMessage] {
            messages.withLock { messages in
                defer { messages = [] }
                return messages
            }
        }
        var all: [ZMQMessage] { messages.withLock { $0 } }
    }

    /// Subscribes to `hashblock` and `sequence`, and mines until the subscription carries messages of both topics (a
    /// PUB socket drops what it sends on a topic before the subscription to it arrives, and the two subscriptions
    /// arrive apart: waiting for any first message once left the tip's `hashblock` dropped), then empties the inbox.
    static func listen(_ simnet: Simnet, _ body: (Inbox) async throws -> Void) async throws {
        let endpoint = try #require(simnet.zmqEndpoint)
        let subscriber = ZMQSubscriber(endpoint: endpoint, receiveTimeout: .milliseconds(100))
        let inbox = Inbox()
        let events = subscriber.events()
        let reader = Task {
            for await event in events {
                if case .message(let message) = event { inbox.append(message) }
            }
        }
        defer {
            subscriber.stop()
            reader.cancel()
        }
        func bothTopics() -> Bool { Set(inbox.all.map(\.topic)).isSuperset(of: ["hashblock", "sequence"]) }
        try await eventually(timeout: .seconds(60), "a first message of each topic") {
            if !bothTopics() { _ = try await simnet.mine() }
            return bothTopics()
        }
        let tip = await simnet.tip()
        try await eventually(timeout: .seconds(60), "the tip's hashblock") {
            inbox.all.contains { (try? ZMQNotification($0)) == .hashBlock(tip.hash) }
        }
        _ = inbox.take()
        try await body(inbox)
    }

    static func notes(_ messages: [ZMQMessage]) throws -> [ZMQNotification] {
        try messages.map { try ZMQNotification($0) }
    }

    static var configuration: SimnetConfiguration {
        var configuration = SimnetConfiguration(seed: 42)
        configuration.zmq = "tcp://127.0.0.1:*"
        return configuration
    }

    @Test func getzmqnotificationsListsTheEndpointOnlyWhenOn() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            let endpoint = try #require(simnet.zmqEndpoint)
            #expect(endpoint.hasPrefix("tcp://127.0.0.1:") && !endpoint.hasSuffix(":*"))
            let rows = try #require(try await NodeHarness.result(simnet, "getzmqnotifications").arrayValue)
            #expect(rows.map { $0["type"]?.stringValue } == ["pubhashblock", "pubsequence"])
            #expect(rows.allSatisfy { $0["address"]?.stringValue == endpoint && $0["hwm"]?.int == 1_000 })
        }
        try await Simnet.with(SimnetConfiguration(seed: 42)) { simnet in
            #expect(simnet.zmqEndpoint == nil)
            #expect(try await NodeHarness.result(simnet, "getzmqnotifications") == .array([]))
            let skip = try await SimnetHarness.post(simnet, "/control/zmq", json: #"{"topic":"sequence","skip":1}"#)
            #expect(skip.status == 400)
        }
    }

    @Test func minedBlocksPublishConnectThenTipThenTheMempoolsNewTransactions() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await Self.listen(simnet) { inbox in
                let before = Set(try #require(try await NodeHarness.result(simnet, "getrawmempool").arrayValue))
                let block = try #require(try await simnet.mine().first)
                let after = try #require(try await NodeHarness.result(simnet, "getrawmempool").arrayValue)
                let entered = after.compactMap(\.stringValue).filter { !before.contains(.string($0)) }
                try await eventually(timeout: .seconds(60), "every message of the block") {
                    inbox.all.count >= 2 + entered.count
                }
                let messages = inbox.take()
                let notes = try Self.notes(messages)
                #expect(Array(notes.prefix(2)) == [.blockConnected(block.hash), .hashBlock(block.hash)])
                let added = notes.dropFirst(2).compactMap { note -> String? in
                    if case .mempoolAdded(let txid, _) = note { txid } else { nil }
                }
                #expect(added == entered && notes.count == 2 + entered.count)
                // Counters run on per topic with no gap.
                for topic in ["hashblock", "sequence"] {
                    let counters = messages.filter { $0.topic == topic }.map(\.sequence)
                    #expect(counters == Array(counters.first!..<counters.first! + UInt32(counters.count)))
                }
            }
        }
    }

    @Test func aPaymentPublishesItsTxidWithTheMempoolSequence() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await Self.listen(simnet) { inbox in
                let txid = try await simnet.pay(to: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", amountSat: 50_000)
                let sequenced = try await NodeHarness.result(simnet, "getrawmempool", "[false,true]")
                let sequence = try #require(sequenced["mempool_sequence"]?.int)
                try await eventually(timeout: .seconds(60), "the payment's A") { !inbox.all.isEmpty }
                #expect(
                    try Self.notes(inbox.take()) == [.mempoolAdded(txid: txid, mempoolSequence: UInt64(sequence))]
                )
            }
        }
    }

    @Test func aReorgDisconnectsTopFirstThenConnectsAndNamesOnlyTheNewTip() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await Self.listen(simnet) { inbox in
                let replaced = try await simnet.reorg(depth: 2).sorted { $0.height < $1.height }
                let tip = await simnet.tip()
                try await eventually(timeout: .seconds(60), "the new tip's hashblock") {
                    inbox.all.contains { $0.topic == "hashblock" }
                }
                let blocks = try Self.notes(inbox.take()).filter(\.isBlock)
                #expect(
                    blocks == [
                        .blockDisconnected(replaced[1].oldHash), .blockDisconnected(replaced[0].oldHash),
                        .blockConnected(replaced[0].newHash), .blockConnected(replaced[1].newHash),
                        .hashBlock(tip.hash),
                    ]
                )
                #expect(replaced[1].newHash == tip.hash)
            }
        }
    }

    @Test func skippedCountersShowAsAGapToTheSubscriber() async throws {
        try await Simnet.with(Self.configuration) { simnet in
            try await Self.listen(simnet) { inbox in
                _ = try await simnet.mine()
                try await eventually(timeout: .seconds(60), "a hashblock") {
                    inbox.all.contains { $0.topic == "hashblock" }
                }
                var tracker = ZMQSequenceTracker()
                for message in inbox.take() where message.topic == "hashblock" { _ = tracker.observe(message) }
                let skip = try await SimnetHarness.post(
                    simnet,
                    "/control/zmq",
                    json: #"{"topic":"hashblock","skip":3}"#
                )
                #expect(skip.status == 200)
                let bad = try await SimnetHarness.post(simnet, "/control/zmq", json: #"{"topic":"rawtx","skip":3}"#)
                #expect(bad.status == 400)
                _ = try await simnet.mine()
                let next = try await eventuallyValue(timeout: .seconds(60), "the next hashblock") {
                    inbox.all.first { $0.topic == "hashblock" }
                }
                let follows = tracker.observe(next)
                #expect(!follows, "a gap of 3 counters")
            }
        }
    }
}

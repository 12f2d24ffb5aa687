import Foundation
import Synchronization
import Testing
import WatcherTesting

@testable import WatcherZMQ

/// The ZMQ hint over a real libzmq PUB/SUB pair on loopback TCP.
struct ZMQTests {
    /// The frames of `hashblock` as Bitcoin Core sends them: the hash in RPC order, the counter little-endian.
    @Test func aHashblockMessageReadsAsTheRPCHash() throws {
        let hash = "000000000000000000015f6ad8b1e7ce0a52b24e06ac8ac5ba8bcb1b45dd0e33"
        let body = stride(from: 0, to: 64, by: 2).map {
            UInt8(hash[hash.index(hash.startIndex, offsetBy: $0)...].prefix(2), radix: 16) ?? 0
        }
        let message = try ZMQMessage(frames: [Array("hashblock".utf8), body, [0x05, 0x01, 0x00, 0x00]])
        #expect(message.sequence == 261)
        #expect(try ZMQNotification(message) == .hashBlock(hash))
        #expect(message.frames[2] == [0x05, 0x01, 0x00, 0x00])
    }

    @Test func sequenceBodiesOfEachLabel() throws {
        let hash = [UInt8](repeating: 0xab, count: 32)
        let hex = String(repeating: "ab", count: 32)
        func read(_ body: [UInt8]) throws -> ZMQNotification {
            try ZMQNotification(ZMQMessage(topic: "sequence", body: body, sequence: 0))
        }
        #expect(try read(hash + [UInt8(ascii: "C")]) == .blockConnected(hex))
        #expect(try read(hash + [UInt8(ascii: "D")]) == .blockDisconnected(hex))
        let mempoolSequence: [UInt8] = [0x2a, 0x01, 0, 0, 0, 0, 0, 0]
        #expect(
            try read(hash + [UInt8(ascii: "A")] + mempoolSequence) == .mempoolAdded(txid: hex, mempoolSequence: 298)
        )
        #expect(
            try read(hash + [UInt8(ascii: "R")] + mempoolSequence) == .mempoolRemoved(txid: hex, mempoolSequence: 298)
        )
        #expect(throws: ZMQMessage.Malformed.self) { try read(hash + [UInt8(ascii: "A")]) }
        #expect(throws: ZMQMessage.Malformed.self) { try read(hash + [UInt8(ascii: "X")]) }
        #expect(throws: ZMQMessage.Malformed.self) { try read(Array(hash.prefix(20))) }
        #expect(throws: ZMQMessage.Malformed.self) { try ZMQMessage(frames: [Array("hashblock".utf8), hash]) }
        #expect(throws: ZMQMessage.Malformed.self) { try ZMQMessage(frames: [Array("hashblock".utf8), hash, [1]]) }
        #expect(try read(hash + [UInt8(ascii: "C")]).isBlock)
        #expect(try !ZMQNotification(ZMQMessage(topic: "rawtx", body: [1, 2], sequence: 0)).isBlock)
    }

    @Test func theTrackerAsksForAFullPollOnTheFirstMessageAGapAndAfterAReset() {
        var tracker = ZMQSequenceTracker()
        func follows(_ topic: String, _ sequence: UInt32) -> Bool {
            tracker.observe(ZMQMessage(topic: topic, body: [], sequence: sequence))
        }
        let seen = [
            follows("hashblock", 7),  // the first one after a connect
            follows("hashblock", 8),
            follows("sequence", 40),  // counters are per topic
            follows("sequence", 41),
            follows("hashblock", 10),  // 9 was lost
            follows("hashblock", 11),
            follows("hashblock", 11),  // a repeat is not a continuation
        ]
        #expect(seen == [false, true, false, true, false, true, false])
        tracker.reset()
        #expect(follows("hashblock", 12) == false, "nothing is continuous after a reset")
        var wrapping = ZMQSequenceTracker()
        let first = wrapping.observe(ZMQMessage(topic: "hashblock", body: [], sequence: .max))
        let wrapped = wrapping.observe(ZMQMessage(topic: "hashblock", body: [], sequence: 0))
        #expect(!first && wrapped, "the counter wraps")
    }

    /// A publisher and a subscriber on loopback: the subscriber connects, messages arrive in order with their
    /// counters, a skipped counter shows as a gap, and stop() ends the stream.
    @Test func messagesArriveOverLoopbackWithTheirCounters() async throws {
        let publisher = try ZMQPublisher(bind: "tcp://127.0.0.1:*")
        defer { publisher.close() }
        #expect(publisher.endpoint.hasPrefix("tcp://127.0.0.1:") && !publisher.endpoint.hasSuffix(":*"))
        let subscriber = ZMQSubscriber(endpoint: publisher.endpoint, receiveTimeout: .milliseconds(50))
        let received = Mutex<[ZMQMessage]>([])
        let consumer = Task {
            for await event in subscriber.events() {
                if case .message(let message) = event { received.withLock { $0.append(message) } }
            }
        }
        let probe = [UInt8](repeating: 0x11, count: 32)
        let hash = [UInt8](repeating: 0x22, count: 32)
        // A PUB socket drops what it sends before the subscription reaches it: publish probes until one arrives.
        try await eventually(timeout: .seconds(60), "the subscription to reach the publisher") {
            try publisher.publish(topic: "hashblock", body: probe)
            return !received.withLock { $0.isEmpty }
        }
        let first = try publisher.publish(topic: "hashblock", body: hash)
        publisher.skip(topic: "hashblock", count: 1)
        let third = try publisher.publish(topic: "hashblock", body: hash)
        try publisher.publish(topic: "rawtx", body: [1, 2, 3])  // not subscribed: never delivered
        try publisher.publish(topic: "sequence", body: hash + [UInt8(ascii: "C")])
        try await eventually(timeout: .seconds(60), "three more messages") {
            received.withLock { $0.filter { $0.body != probe }.count } >= 3
        }
        let tail = received.withLock { $0.filter { $0.body != probe } }
        #expect(tail.map(\.topic) == ["hashblock", "hashblock", "sequence"])
        #expect(tail.map(\.sequence) == [first, third, 0])
        #expect(third == first + 2)
        var tracker = ZMQSequenceTracker()
        _ = tracker.observe(tail[0])
        let continuous = tracker.observe(tail[1])
        #expect(!continuous, "the skipped counter is a gap")
        subscriber.stop()
        await consumer.value
    }
}

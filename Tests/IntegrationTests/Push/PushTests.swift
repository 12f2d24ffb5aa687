import BlockbookAdapter
import Foundation
import HummingbirdWSClient
import Logging
import NIOWebSocket
import Synchronization
import Testing
import WatcherCore
import WatcherTesting

@testable import WatcherSimnet

/// Blockbook's websocket: the simnet's `/websocket` with its limits and ban, and the adapter's push client
/// against it, over real sockets on loopback.
@Suite(.serialized)
struct PushTests {
    final class Received: Sendable {
        let events = Mutex<[PushEvent]>([])
        func append(_ event: PushEvent) { events.withLock { $0.append(event) } }
        var all: [PushEvent] { events.withLock { $0 } }

        /// Every event with the facts of pushed transactions left out, to compare with events written by hand.
        var plain: [PushEvent] {
            all.map { event in
                guard case .addressTx(let address, let txid, let delta, let confirmed, _, _) = event else {
                    return event
                }
                return .addressTx(address: address, txid: txid, deltaSat: delta, confirmed: confirmed)
            }
        }
    }

    static var quiet: Logger {
        var logger = Logger(label: "push-test")
        logger.logLevel = .critical
        return logger
    }

    static func configuration(_ seed: UInt64) -> SimnetConfiguration {
        SimnetConfiguration(chain: ChainParameters(seed: seed, txsPerBlock: 10, fundedAddressCount: 10))
    }

    /// `count` P2WPKH addresses drawn from a generator seeded with `seed`. Give another seed than the simnet's: its
    /// funded addresses come from the same generator.
    static func randomAddresses(_ count: Int, seed: UInt64) -> [String] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { _ in SimAddress.random(.p2wpkh, using: &rng).string }
    }

    /// Starts the adapter's push client following `addresses` on `simnet` in a task of its own and returns once it
    /// has subscribed, with what it receives and the task (cancel it to stop following).
    static func follow(
        _ simnet: Simnet,
        _ addresses: [String],
        connections: Int = 1
    ) async throws -> (Received, Task<Void, any Error>) {
        let push = BlockbookPush(baseURL: simnet.baseURL, connections: connections, logger: quiet)
        let received = Received()
        let task = Task { try await push.follow(addresses: { addresses }) { received.append($0) } }
        do {
            try await eventually("subscribed") { received.all.contains(.subscribed) }
        } catch {
            task.cancel()
            throw error
        }
        return (received, task)
    }

    @Test func blocksAndPaymentsArePushed() async throws {
        try await Harness.with(Self.configuration(41)) { harness in
            let simnet = harness.simnet
            let addresses = Self.randomAddresses(4, seed: 9_041)
            let followed = Array(addresses.prefix(3))
            let (received, task) = try await Self.follow(simnet, followed)
            defer { task.cancel() }
            let txid = try await simnet.pay(to: followed[1], amountSat: 12_345)
            try await eventually("the payment") {
                received.plain.contains(
                    .addressTx(address: followed[1], txid: txid, deltaSat: 12_345, confirmed: false)
                )
            }
            // The push carries the whole transaction: its zero-conf facts come with it, as from `/api/v2/tx`.
            let facts = received.all.compactMap { event -> TxFacts? in
                guard case .addressTx(_, txid, _, _, let facts, _) = event else { return nil }
                return facts
            }.first
            let truth = try #require(await simnet.chain().transaction(txid))
            #expect(facts?.feeSat == truth.fee)
            #expect(facts?.sequences == truth.inputs.map(\.sequence))
            #expect(facts?.outpoints?.map(\.txid) == truth.inputs.map(\.prevout.txid))
            let mined = try await simnet.mine(count: 1)
            try await eventually("the block") {
                received.all.contains(.newBlock(height: mined[0].height, hash: mined[0].hash))
            }
            // A payment to an address nobody subscribed is not pushed.
            _ = try await simnet.pay(to: addresses[3], amountSat: 1_000)
            _ = try await simnet.mine(count: 1)
            try await eventually("the second block") {
                received.all.filter { if case .newBlock = $0 { true } else { false } }.count == 2
            }
            let pushed = received.all.filter { if case .addressTx = $0 { true } else { false } }
            #expect(pushed.count == 1, "\(pushed)")
        }
    }

    @Test func theSimnetRefusesMoreThanAThousandAddresses() async throws {
        try await Harness.with(Self.configuration(43)) { harness in
            let many = Self.randomAddresses(1_001, seed: 43)
            let url = harness.simnet.baseURL.replacingOccurrences(of: "http://", with: "ws://") + "/websocket"
            let answer = Mutex<String?>(nil)
            var configuration = WebSocketClientConfiguration(maxFrameSize: 4 << 20)
            configuration.autoPing = .disabled
            _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: Self.quiet) {
                inbound,
                outbound,
                _ in
                // A 45 KB frame: within Blockbook's 4 MiB, so the refusal is about the count, not the size.
                let list = many.map { "\"\($0)\"" }.joined(separator: ",")
                try await outbound.write(
                    .text(#"{"id":"a","method":"subscribeAddresses","params":{"addresses":["# + list + "]}}")
                )
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    guard case .text(let text) = message else { continue }
                    answer.withLock { $0 = text }
                    break
                }
            }
            let text = try #require(answer.withLock { $0 })
            #expect(text.contains("Too many addresses: 1001, the limit is 1000"), "\(text)")
        }
    }

    @Test func theClientSubscribesTheFirstThousandOfMore() async throws {
        try await Harness.with(Self.configuration(44)) { harness in
            let simnet = harness.simnet
            let many = Self.randomAddresses(1_001, seed: 9_044)
            let (received, task) = try await Self.follow(simnet, many)
            defer { task.cancel() }
            let beyond = try await simnet.pay(to: many[1_000], amountSat: 2_000)
            let within = try await simnet.pay(to: many[999], amountSat: 1_000)
            try await eventually("the payment to the 1,000th address") {
                received.plain.contains(.addressTx(address: many[999], txid: within, deltaSat: 1_000, confirmed: false))
            }
            // Pushed in order on one connection: had the 1,001st been subscribed, it would have come first.
            #expect(!received.all.contains { if case .addressTx(_, beyond, _, _, _, _) = $0 { true } else { false } })
            #expect(simnet.websocketStats().open == 1)
        }
    }

    @Test func moreConnectionsFollowAThousandAddressesEach() async throws {
        try await Harness.with(Self.configuration(45)) { harness in
            let simnet = harness.simnet
            let many = Self.randomAddresses(2_500, seed: 9_045)
            let (received, task) = try await Self.follow(simnet, many, connections: 3)
            defer { task.cancel() }
            #expect(simnet.websocketStats().open == 3)
            // One payment in each connection's slice: the first, the 1,001st and the last address.
            var paid: [(address: String, txid: String)] = []
            for address in [many[0], many[1_000], many[2_499]] {
                paid.append((address, try await simnet.pay(to: address, amountSat: 3_000)))
            }
            try await eventually("a payment to each slice") {
                paid.allSatisfy { payment in
                    received.plain.contains(
                        .addressTx(address: payment.address, txid: payment.txid, deltaSat: 3_000, confirmed: false)
                    )
                }
            }
            // Only the first connection follows blocks: a block is pushed once, not once per connection. Each
            // connection's frames arrive in order, so once a later payment arrived on all three, any second copy of
            // the block would have too.
            let mined = try await simnet.mine(count: 1)
            let block = PushEvent.newBlock(height: mined[0].height, hash: mined[0].hash)
            var later: [PushEvent] = []
            for address in [many[0], many[1_000], many[2_499]] {
                let txid = try await simnet.pay(to: address, amountSat: 4_000)
                later.append(.addressTx(address: address, txid: txid, deltaSat: 4_000, confirmed: false))
            }
            try await eventually("the block and the later payments") {
                let all = received.plain
                return all.contains(block) && later.allSatisfy(all.contains)
            }
            #expect(received.all.filter { $0 == block }.count == 1)
            // Subscribed once, when all three acknowledged.
            #expect(received.all.filter { $0 == .subscribed }.count == 1)
        }
    }

    @Test func tooManyMessagesCloseTheConnectionAndBanNewOnes() async throws {
        try await Harness.with(Self.configuration(47)) { harness in
            let simnet = harness.simnet
            simnet.setWebSocketLimits(WebSocketLimits(messages: 5, window: .seconds(600), ban: .seconds(60)))
            let url = simnet.baseURL.replacingOccurrences(of: "http://", with: "ws://") + "/websocket"
            let answers = Mutex<[String]>([])
            let closed = try await WebSocketClient.connect(url: url, logger: Self.quiet) { inbound, outbound, _ in
                // An unknown method gets no answer; then six pings, one more than the limit.
                try await outbound.write(.text(#"{"id":"u","method":"noSuchMethod","params":{}}"#))
                for index in 0..<5 {
                    try await outbound.write(.text(#"{"id":"p\#(index)","method":"ping","params":{}}"#))
                }
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    if case .text(let text) = message { answers.withLock { $0.append(text) } }
                }
            }
            #expect(closed?.closeCode == .policyViolation)
            // The unknown method and the pings up to the limit: four answers, all pings.
            #expect(answers.withLock { $0 } == (0..<4).map { #"{"id":"p\#($0)","data":{}}"# })
            let stats = simnet.websocketStats()
            #expect(stats.closedForLimit == 1 && stats.banned)
            // A new connection is refused while the ban lasts.
            await #expect(throws: (any Error).self) {
                try await WebSocketClient.connect(url: url, logger: Self.quiet) { _, _, _ in }
            }
            #expect(simnet.websocketStats().refusedWhileBanned >= 1)
        }
    }

    @Test func aNumericIDClosesTheConnection() async throws {
        try await Harness.with(Self.configuration(53)) { harness in
            let url = harness.simnet.baseURL.replacingOccurrences(of: "http://", with: "ws://") + "/websocket"
            let closed = try await WebSocketClient.connect(url: url, logger: Self.quiet) { inbound, outbound, _ in
                try await outbound.write(.text(#"{"id":1,"method":"ping","params":{}}"#))
                for try await _ in inbound.messages(maxSize: 1 << 16) {}
            }
            #expect(closed?.closeCode == .policyViolation)
        }
    }

    @Test func aDroppedConnectionEnds() async throws {
        try await Harness.with(Self.configuration(67)) { harness in
            let simnet = harness.simnet
            let (_, task) = try await Self.follow(simnet, [])
            simnet.dropWebSockets()
            await #expect(throws: ProviderError.self) { try await task.value }
            try await eventually("closed on the server") { simnet.websocketStats().open == 0 }
        }
    }
}

import Foundation
import Synchronization
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherPlugins
import WatcherSimnet
import WatcherTesting
import WatcherZMQ

@testable import BitcoindAdapter

/// The `zmq` option's hint over a real libzmq PUB/SUB pair on loopback: what wakes the tip poll, and what does not.
@Suite struct BitcoindZMQTests {
    static let hash = String(repeating: "ab", count: 32)

    static func sequence(_ label: Character, _ counter: UInt32) -> ZMQMessage {
        let body =
            [UInt8](repeating: 0xcd, count: 32) + [UInt8(ascii: label.unicodeScalars.first!)]
            + (label == "A" || label == "R" ? [UInt8](repeating: 0, count: 8) : [])
        return ZMQMessage(topic: "sequence", body: body, sequence: counter)
    }

    @Test func blocksReconnectsGapsAndMalformedMessagesWakeContinuousMempoolMessagesDoNot() {
        var hints = BitcoindZMQ.Hints()
        let block = ZMQMessage(topic: "hashblock", body: [UInt8](repeating: 1, count: 32), sequence: 5)
        let seen = [
            hints.wake(.connected),
            hints.wake(.message(Self.sequence("A", 10))),  // the first of its topic since the connect
            hints.wake(.message(Self.sequence("A", 11))),  // continues: a mempool hint only
            hints.wake(.message(Self.sequence("R", 12))),
            hints.wake(.message(Self.sequence("A", 14))),  // 13 was lost
            hints.wake(.message(Self.sequence("C", 15))),  // a block, from a node without hashblock (so far)
            hints.wake(.message(block)),
            hints.wake(.message(Self.sequence("C", 16))),  // hashblock stands for blocks now
            hints.wake(.message(Self.sequence("D", 17))),
            hints.wake(.silence),
            hints.wake(.failed("zmq_msg_recv failed")),
            hints.wake(.malformed("2 frames")),
            hints.wake(.connected),  // a reconnect forgets the counters
            hints.wake(.message(Self.sequence("A", 18))),
        ]
        #expect(seen == [true, true, false, false, true, true, true, false, false, false, false, true, true, true])
    }

    @Test func continuousAddsNameTheirTransactionAndALossAsksForTheWholeMempool() {
        var hints = BitcoindZMQ.Hints()
        let txid = String(repeating: "cd", count: 32)
        let block = ZMQMessage(topic: "hashblock", body: [UInt8](repeating: 1, count: 32), sequence: 5)
        let seen = [
            hints.read(.connected),
            hints.read(.message(Self.sequence("A", 10))),  // the first of its topic: maybe some were lost before
            hints.read(.message(Self.sequence("A", 11))),
            hints.read(.message(Self.sequence("R", 12))),  // a removal: the next whole read prunes it
            hints.read(.message(Self.sequence("A", 14))),  // 13 was lost
            hints.read(.message(block)),  // a block's topic has its own counter: the mempool is not read for it
            hints.read(.malformed("2 frames")),
        ].map(\.mempool)
        #expect(
            seen == [
                .init(txid: nil), .init(txid: nil), .init(txid: txid), nil, .init(txid: nil), nil, .init(txid: nil),
            ]
        )
    }

    /// The events `follow` reports, in order.
    final class Reports: Sendable {
        private let events = Mutex<[PushEvent]>([])
        func append(_ event: PushEvent) { events.withLock { $0.append(event) } }
        var count: Int { events.withLock { $0.count } }
        var all: [PushEvent] { events.withLock { $0 } }
    }

    @Test func followWakesOnConnectBlocksAndAGapAndAfterThePublisherRestarts() async throws {
        var publisher = try ZMQPublisher(bind: "tcp://127.0.0.1:*")
        let endpoint = publisher.endpoint
        let follower = BitcoindZMQ(endpoint: { endpoint }, receiveTimeout: .milliseconds(100))
        #expect(follower.maxAddresses == 0)
        let reports = Reports()
        let following = Task {
            try await follower.follow(addresses: { [] }) { reports.append($0) }
        }
        defer { following.cancel() }
        try await eventually(timeout: .seconds(60), "the connect's wakes") {
            reports.all == [.newBlock(height: -1, hash: ""), .mempool(txid: nil)]
        }
        // The subscription reaches the publisher a moment after the connect: publish until a block arrives.
        try await eventually(timeout: .seconds(60), "a block's wake") {
            try publisher.publish(topic: "hashblock", body: [UInt8](repeating: 0xab, count: 32))
            return reports.all.contains(.newBlock(height: -1, hash: Self.hash))
        }
        // Mempool messages: the first of the topic wakes, those that follow do not, one after a gap does. Each is
        // followed by a block with a hash of its own: messages of one socket arrive in order, so the wakes between
        // two such blocks are the mempool message's. Each also asks the mempool job: for its transaction when it
        // continues its topic, for the whole mempool when it does not.
        var marker = Self.hash
        func wakesOf(_ label: Character, step: UInt8) async throws -> (tip: Int, mempool: [PushEvent]) {
            let previous = marker
            marker = String(repeating: String(format: "%02x", step), count: 32)
            try publisher.publish(topic: "sequence", body: Self.sequence(label, 0).body)
            try publisher.publish(topic: "hashblock", body: [UInt8](repeating: step, count: 32))
            let current = marker
            let all = try await eventuallyValue(timeout: .seconds(60), "block \(step)") {
                let all = reports.all
                return all.contains(.newBlock(height: -1, hash: current)) ? all : nil
            }
            let from = try #require(all.lastIndex(of: .newBlock(height: -1, hash: previous)))
            let to = try #require(all.lastIndex(of: .newBlock(height: -1, hash: current)))
            let between = all[(from + 1)..<to]
            return (
                between.filter { if case .newBlock = $0 { true } else { false } }.count,
                between.filter { if case .mempool = $0 { true } else { false } }
            )
        }
        let txid = String(repeating: "cd", count: 32)
        let first = try await wakesOf("A", step: 1)
        #expect(first.tip == 1, "the first A of the topic wakes")
        #expect(first.mempool == [.mempool(txid: nil)], "and asks for the whole mempool")
        let second = try await wakesOf("A", step: 2)
        #expect(second.tip == 0, "a continuous A does not wake the tip poll")
        #expect(second.mempool == [.mempool(txid: txid)], "it names its transaction")
        publisher.skip(topic: "sequence", count: 2)
        let third = try await wakesOf("R", step: 3)
        #expect(third.tip == 1, "an R after a gap wakes")
        #expect(third.mempool == [.mempool(txid: nil)])
        let before = reports.count
        // A node restart: a new publisher on the same port, its counters from 0. Only mempool messages are sent, so
        // the one wake comes from the broken counter.
        publisher.close()
        // ZMQ closes the old listener on its I/O thread a moment later, and in the parallel suite another socket
        // may hold the port a moment longer (a gate run failed so, EADDRINUSE): bind again until it is free.
        publisher = try await eventuallyValue(timeout: .seconds(30), "the publisher's port free again") {
            try? ZMQPublisher(bind: endpoint)
        }
        // Its counter starts far from the old one: what the subscriber drops while its subscription travels to the
        // new socket must not bring the first counter it sees to exactly the old one's next (the only restart the
        // counter cannot show; a block message wakes regardless).
        publisher.skip(topic: "sequence", count: 1_000)
        try await eventually(timeout: .seconds(60), "a wake after the restart") {
            try publisher.publish(topic: "sequence", body: Self.sequence("A", 0).body)
            return reports.count > before
        }
        publisher.close()
    }

    @Test func autoFindsTheEndpointInGetzmqnotificationsAndSaysWhatIsMissing() async throws {
        var configuration = SimnetConfiguration(seed: 42)
        configuration.zmq = "tcp://127.0.0.1:*"
        for zmq in [true, false] {
            configuration.zmq = zmq ? "tcp://127.0.0.1:*" : nil
            try await Simnet.with(configuration) { simnet in
                try await FixtureServer.withTransport { http in
                    let provider = BitcoindProvider(
                        id: "node",
                        baseURL: simnet.baseURL,
                        http: http,
                        auth: .password(user: "watcher", password: "watcher")
                    )
                    if zmq {
                        let found = try await provider.zmqEndpoint(host: "127.0.0.1")
                        #expect(found == simnet.zmqEndpoint)
                    } else {
                        let error = await #expect(throws: ProviderError.self) {
                            try await provider.zmqEndpoint(host: "127.0.0.1")
                        }
                        #expect("\(error.map { "\($0)" } ?? "")".contains("-zmqpubhashblock"))
                    }
                }
            }
        }
    }

    static func load(_ zmq: String?) throws(ConfigError) -> WatcherConfig {
        let option = zmq.map { #", "zmq": "\#($0)""# } ?? ""
        return try ConfigLoader(registry: .builtIn, environment: [:]).load(
            bytes: Array(
                """
                {"providers": [{"id": "node", "type": "bitcoind", "chain": "btc",
                                "options": {"cookieFile": "/var/lib/bitcoind/.cookie"\(option)}}],
                 "watches": [{"id": "tip", "type": "blocks", "providers": ["node"], "every": "30s"},
                             {"id": "shop", "type": "address", "providers": ["node"],
                              "addresses": ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"]}],
                 "sinks": []}
                """.utf8
            )
        )
    }

    @Test func theOptionIsCheckedAndMakesAHintOnlyPushJob() throws {
        for good in ["auto", "tcp://127.0.0.1:28332", "ipc:///run/bitcoind/zmq"] {
            let plan = JobPlan(config: try Self.load(good))
            let push = try #require(plan.jobs.first { $0.name == "push btc" }, "\(good)")
            #expect(push.work == .push(chain: "btc", addresses: 0))
            #expect(push.detail.contains("ZMQ hint") && push.detail.contains("polling is the truth"))
            let shop = try #require(plan.jobs.first { $0.name == "watch shop" })
            #expect(shop.detail.contains("push n/a"), "no address capacity is claimed")
        }
        #expect(!JobPlan(config: try Self.load(nil)).jobs.contains { $0.name == "push btc" })
        for bad in ["tcp://127.0.0.1", "127.0.0.1:28332", "tcp://127.0.0.1:*", "tcp://127.0.0.1:0", "yes"] {
            #expect(BitcoindPlugin.Options.zmqProblem(bad)?.contains("must be auto") == true, "\(bad)")
            do {
                _ = try Self.load(bad)
                Issue.record("\(bad) accepted")
            } catch {
                #expect(error.issues.contains { $0.description.contains("zmq") }, "\(bad): \(error.issues)")
            }
        }
    }
}

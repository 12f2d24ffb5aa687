import Foundation
import MetricsTestKit
import Synchronization
import Testing
import WatcherCore
import WatcherDelivery
import WatcherEventLog
import WatcherHTTP
import WatcherSinks
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

/// Webhook delivery end to end: real LMDB, the daemon's HTTP transport, real Hummingbird receivers on loopback.
@Suite("Webhook delivery", .timeLimit(.minutes(2)))
struct WebhookDeliveryTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    /// A service over one or more webhook sinks.
    static func service(
        _ store: Store,
        _ sinks: [WebhookSink],
        filters: [EventFilter]? = nil,
        clock: ManualClock? = nil,
        signal: LogSignal = LogSignal(),
        counts: TestMetrics = TestMetrics()
    ) -> DeliveryService {
        DeliveryService(
            store: store,
            signal: signal,
            routes: sinks.enumerated().map { .init(sink: $1, filter: filters?[$0] ?? EventFilter()) },
            retention: nil,
            logger: quietLogger,
            time: clock?.timeSource() ?? .system,
            options: testOptions,
            metrics: counts.watcher
        )
    }

    @Test func deliversInOrderBehindAFailingReceiverWithSignedRequests() async throws {
        let clock = ManualClock()
        let failures = Counter()
        try await withOneWebhook(
            clock: clock,
            answering: { _, _ in failures.next() < 3 ? Reply(status: 500) : .ok }
        ) { store, receiver, sink, _ in
            try await Events.append(store, 1...5)
            let counts = TestMetrics()
            let service = Self.service(store, [sink], clock: clock, counts: counts)
            try await whileRunning(service) {
                try await eventually(timeout: .seconds(60), "five deliveries") { receiver.deliveredIDs.count == 5 }
                try await eventually(timeout: .seconds(60), "the cursor") { try cursor(store, "hook") == 5 }
            }
            #expect(receiver.ids == ["evt_1", "evt_1", "evt_1", "evt_1", "evt_2", "evt_3", "evt_4", "evt_5"])
            #expect(receiver.log.map(\.status) == [500, 500, 500, 200, 200, 200, 200, 200])
            for (request, _) in receiver.log {
                #expect(request.headers["x-test"] == "yes")
                #expect(request.headers["content-type"] == "application/json")
                #expect(request.body == Events.body(Int(request.webhookID.dropFirst(4)) ?? 0))
                let verified = WebhookSignature.verify(
                    secret: Self.secret,
                    id: request.headers["webhook-id"],
                    timestamp: request.headers["webhook-timestamp"],
                    signature: request.headers["webhook-signature"],
                    body: request.body
                )
                #expect(verified)
            }
            #expect(counts.sinkEvents("hook", "delivered") == 5 && counts.sinkFailures("hook") == 3)
            #expect(counts.sinkEvents("hook", "dead_lettered") == 0)
            #expect(service.status.state(sink: "hook")?.lag == 0)
        }
    }

    @Test func fansOutWhileOneEndpointHangs() async throws {
        try await withWebhookSetup([{ _, _ in .ok }, { _, _ in Reply(status: 200, delay: .seconds(3)) }]) {
            store,
            http,
            receivers in
            let (healthy, hanging) = (receivers[0], receivers[1])
            let sinks = [
                webhookSink(hookOptions(healthy.url), http, id: "a"),
                webhookSink(
                    hookOptions(
                        hanging.url,
                        timeout: .milliseconds(200),
                        maxAttempts: 1000,
                        initialBackoff: .milliseconds(50),
                        maxBackoff: .milliseconds(100)
                    ),
                    http,
                    id: "b"
                ),
            ]
            let signal = LogSignal()
            let counts = TestMetrics()
            let service = Self.service(store, sinks, signal: signal, counts: counts)
            try await whileRunning(service) {
                for batch in 0..<4 {
                    try await Events.append(store, (batch * 5 + 1)...(batch * 5 + 5), signal: signal)
                }
                // Generous under a loaded CI machine; a coupled sink would never deliver (the other retries 1000 times).
                try await eventually(timeout: .seconds(60), "the healthy endpoint to get all 20") {
                    healthy.deliveredIDs.count == 20
                }
                try await eventually(timeout: .seconds(60), "the hanging endpoint to time out twice") {
                    counts.sinkFailures("b") >= 2
                }
            }
            #expect(healthy.ids == (1...20).map(Events.id))
            #expect(try cursor(store, "a") == 20)
            #expect(try cursor(store, "b") == 0)
            #expect(Set(hanging.ids) == ["evt_1"])
            #expect(service.status.state(sink: "b")?.lastError?.contains("no answer within") == true)
            #expect(try store.read { try $0.deadLetters() }.isEmpty)
        }
    }

    @Test func honoursRetryAfter() async throws {
        let clock = ManualClock()
        let requests = Counter()
        try await withOneWebhook(
            clock: clock,
            options: { hookOptions($0, initialBackoff: .milliseconds(1), maxBackoff: .milliseconds(1)) },
            answering: { _, _ in requests.next() == 0 ? Reply(status: 429, retryAfter: "7") : .ok }
        ) { store, receiver, sink, _ in
            try await Events.append(store, 1...2)
            try await whileRunning(Self.service(store, [sink], clock: clock)) {
                try await eventually(timeout: .seconds(60), "both delivered") {
                    receiver.deliveredIDs == ["evt_1", "evt_2"]
                }
            }
            let arrivals = receiver.log.compactMap(\.request.clockOffset)
            #expect(receiver.ids == ["evt_1", "evt_1", "evt_2"])
            #expect(arrivals.count == 3)
            #expect(arrivals[1] - arrivals[0] >= .seconds(7))
            #expect(arrivals[1] - arrivals[0] < .seconds(8))
        }
    }

    @Test func goneDisablesPersistentlyAndReplayReenables() async throws {
        try await withOneWebhook(answering: { _, _ in Reply(status: 410) }) { store, receiver, sink, _ in
            let signal = LogSignal()
            try await Events.append(store, 1...3)
            let first = Self.service(store, [sink], signal: signal)
            try await whileRunning(first) {
                try await eventually(timeout: .seconds(60), "the sink to be disabled") {
                    try store.read { try $0.sinkDisabled(sink: "hook") } != nil
                }
                try await Events.append(store, 4...5, signal: signal)
                try await eventually(timeout: .seconds(60), "the disabled worker to see the new events") {
                    first.status.state(sink: "hook")?.head == 5
                }
            }
            #expect(receiver.ids == ["evt_1"])
            let letters = try store.read { try $0.deadLetters(sink: "hook") }
            #expect(letters.map(\.eventID) == ["evt_1"])
            #expect(letters.first?.lastError.contains("410") == true)
            #expect(try cursor(store, "hook") == 1)
            #expect(first.status.state(sink: "hook")?.disabled != nil)

            // A restart does not call it again.
            let second = Self.service(store, [sink], signal: signal)
            try await whileRunning(second) {
                try await eventually(timeout: .seconds(60), "the restarted worker to see the log") {
                    second.status.state(sink: "hook")?.head == 5
                }
                #expect(second.status.state(sink: "hook")?.disabled != nil)
                #expect(receiver.ids == ["evt_1"])

                // The endpoint comes back: a replay delivers the dead letter and re-enables the sink,
                // and the running worker resumes from its cursor.
                receiver.answer { _, _ in .ok }
                let summary = try await DeadLetterReplayer(store: store, logger: quietLogger, time: .system).replay(
                    sink
                )
                #expect(summary.replayed == 1 && summary.remaining == 0 && summary.reenabled)
                try await eventually(timeout: .seconds(60), "the rest delivered") { try cursor(store, "hook") == 5 }
            }
            #expect(receiver.deliveredIDs == ["evt_1", "evt_2", "evt_3", "evt_4", "evt_5"])
            #expect(try store.read { try $0.sinkDisabled(sink: "hook") } == nil)

            // A new URL for the same sink id starts enabled.
            try await store.write { txn in
                try txn.setSinkDisabled(
                    SinkDisabledRecord(
                        sink: "hook",
                        reason: "gone",
                        destination: "http://old",
                        disabledAt: Date()
                    )
                )
            }
            try await Events.append(store, 6...6)
            try await whileRunning(Self.service(store, [sink])) {
                try await eventually(timeout: .seconds(60), "delivery to the new URL") {
                    try cursor(store, "hook") == 6
                }
            }
        }
    }

    @Test func deadLettersAfterMaxAttemptsThenReplays() async throws {
        let clock = ManualClock()
        try await withOneWebhook(
            clock: clock,
            options: { hookOptions($0, maxAttempts: 3) },
            answering: { request, _ in request.webhookID == "evt_2" ? Reply(status: 500) : .ok }
        ) { store, receiver, sink, _ in
            try await Events.append(store, 1...4)
            let counts = TestMetrics()
            let service = Self.service(store, [sink], clock: clock, counts: counts)
            try await whileRunning(service) {
                try await eventually(timeout: .seconds(60), "the cursor past the dead letter") {
                    try cursor(store, "hook") == 4
                }
            }
            #expect(receiver.ids == ["evt_1", "evt_2", "evt_2", "evt_2", "evt_3", "evt_4"])
            let letter = try #require(try store.read { try $0.deadLetters(sink: "hook") }.first)
            #expect(letter.seq == 2 && letter.eventID == "evt_2" && letter.attempts == 3)
            #expect(letter.lastError.contains("HTTP 500") && letter.lastError.contains("3 attempts"))
            #expect(letter.body == Events.body(2))
            #expect(counts.sinkEvents("hook", "dead_lettered") == 1)

            // Replay while still failing keeps it, counting the attempt; once fixed it goes through.
            let replayer = DeadLetterReplayer(store: store, logger: quietLogger, time: .system)
            let failed = try await replayer.replay(sink)
            #expect(failed.replayed == 0 && failed.remaining == 1 && failed.failure == "HTTP 500")
            #expect(try store.read { try $0.deadLetters(sink: "hook") }.first?.attempts == 4)
            receiver.answer { _, _ in .ok }
            let summary = try await replayer.replay(sink)
            #expect(summary.replayed == 1 && summary.remaining == 0)
            #expect(receiver.deliveredIDs == ["evt_1", "evt_3", "evt_4", "evt_2"])
        }
    }

    @Test func deadLettersAfterMaxAge() async throws {
        let clock = ManualClock()
        try await withOneWebhook(
            clock: clock,
            options: {
                hookOptions(
                    $0,
                    maxAttempts: 1000,
                    maxAge: .seconds(30),
                    initialBackoff: .seconds(2),
                    maxBackoff: .seconds(8)
                )
            },
            answering: { _, _ in Reply(status: 503) }
        ) { store, receiver, sink, _ in
            try await Events.append(store, 1...1)
            try await whileRunning(Self.service(store, [sink], clock: clock)) {
                try await eventually(timeout: .seconds(60), "the dead letter") {
                    try !store.read { try $0.deadLetters(sink: "hook") }.isEmpty
                }
            }
            let letter = try #require(try store.read { try $0.deadLetters(sink: "hook") }.first)
            #expect(letter.lastError.contains("maxAge"))
            #expect(letter.attempts >= 4 && letter.attempts < 1000)
            #expect(clock.now.offset >= .seconds(30))
            let arrivals = receiver.log.compactMap(\.request.clockOffset)
            #expect((arrivals.last ?? .zero) - (arrivals.first ?? .zero) >= .seconds(30))
            #expect(try cursor(store, "hook") == 1)
        }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Synchronization.Mutex(0)
    /// Returns the current value and increments it.
    func next() -> Int {
        value.withLock { value in
            let current = value
            value += 1
            return current
        }
    }
}

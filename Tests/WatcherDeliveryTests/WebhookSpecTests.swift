import Foundation
import MetricsTestKit
import Testing
import WatcherCore
import WatcherHTTP
import WatcherJSON
import WatcherSinks
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

/// Standard Webhooks rules on real loopback receivers: a redirect is a failed attempt and is never followed, a
/// 4xx other than the retried ones dead-letters at once, and attempt counts survive a restart.
@Suite("Webhook delivery per Standard Webhooks", .timeLimit(.minutes(2)))
struct WebhookSpecTests {
    @Test(arguments: [301, 302, 307, 308])
    func aRedirectIsAFailedAttemptAndItsTargetIsNeverContacted(status: Int) async throws {
        let clock = ManualClock()
        try await withWebhookSetup(clock: clock, [{ _, _ in .ok }, { _, _ in .ok }]) { store, http, receivers in
            let (hook, elsewhere) = (receivers[0], receivers[1])
            hook.answer { _, previous in
                previous < 2 ? Reply(status: status, location: elsewhere.url) : .ok
            }
            let sink = webhookSink(hookOptions(hook.url), http)
            try await Events.append(store, 1...2)
            let counts = TestMetrics()
            let service = WebhookDeliveryTests.service(store, [sink], clock: clock, counts: counts)
            try await whileRunning(service) {
                try await eventually(timeout: .seconds(60), "both delivered") { try cursor(store, "hook") == 2 }
            }
            #expect(hook.ids == ["evt_1", "evt_1", "evt_1", "evt_2", "evt_2", "evt_2"])
            #expect(hook.log.map(\.status) == [status, status, 200, status, status, 200])
            #expect(elsewhere.log.isEmpty, "the redirect target was contacted")
            #expect(counts.sinkFailures("hook") == 4 && counts.sinkEvents("hook", "delivered") == 2)
        }
    }

    @Test func aBadRequestIsADeadLetterAfterOneAttempt() async throws {
        let clock = ManualClock()
        try await withOneWebhook(
            clock: clock,
            answering: { request, _ in request.webhookID == "evt_2" ? Reply(status: 400, body: "bad\nschema") : .ok }
        ) { store, receiver, sink, _ in
            try await Events.append(store, 1...3)
            try await whileRunning(WebhookDeliveryTests.service(store, [sink], clock: clock)) {
                try await eventually(timeout: .seconds(60), "past the dead letter") { try cursor(store, "hook") == 3 }
            }
            #expect(receiver.ids == ["evt_1", "evt_2", "evt_3"])
            let letter = try #require(try store.read { try $0.deadLetters(sink: "hook") }.first)
            #expect(letter.eventID == "evt_2" && letter.attempts == 1)
            #expect(letter.lastError == "HTTP 400, not retried: \"bad schema\"")
            #expect(try store.read { try $0.sinkDisabled(sink: "hook") } == nil)
        }
    }

    @Test func retriedStatusesAreRetriedAndConfigurable() async throws {
        let clock = ManualClock()
        try await withOneWebhook(
            clock: clock,
            answering: { _, previous in previous < 2 ? Reply(status: 409) : .ok }
        ) { store, receiver, sink, http in
            try await Events.append(store, 1...1)
            try await whileRunning(WebhookDeliveryTests.service(store, [sink], clock: clock)) {
                try await eventually(timeout: .seconds(60), "delivered") { try cursor(store, "hook") == 1 }
            }
            #expect(receiver.log.map(\.status) == [409, 409, 200])

            var options = hookOptions(receiver.url)
            options.retryStatuses = []
            receiver.answer { _, _ in Reply(status: 429) }
            let strict = webhookSink(options, http, id: "strict")
            try await Events.append(store, 2...2)
            try await whileRunning(WebhookDeliveryTests.service(store, [strict], clock: clock)) {
                try await eventually(timeout: .seconds(60), "dead-lettered") { try cursor(store, "strict") == 2 }
            }
            let letters = try store.read { try $0.deadLetters(sink: "strict") }
            #expect(letters.count == 2 && letters.allSatisfy { $0.attempts == 1 })
        }
    }

    @Test func attemptCountsSurviveARestart() async throws {
        try await withWebhookSetup([{ _, _ in Reply(status: 500) }]) { store, http, receivers in
            let receiver = receivers[0]
            try await Events.append(store, 1...1)
            // One attempt, then a long backoff on the wall clock, cut short by a restart.
            let patient = hookOptions(receiver.url, initialBackoff: .seconds(60), maxBackoff: .seconds(60))
            let first = webhookSink(patient, http)
            try await whileRunning(WebhookDeliveryTests.service(store, [first])) {
                try await eventually(timeout: .seconds(60), "the failed attempt persisted") {
                    try store.read { try $0.sinkRetry(sink: "hook") }?.attempts == 1
                }
            }
            let persisted = try #require(try store.read { try $0.sinkRetry(sink: "hook") })
            #expect(persisted.seq == 1 && persisted.lastError == "HTTP 500")
            // With maxAttempts 2, the restarted worker makes one more attempt, not two.
            let second = webhookSink(hookOptions(receiver.url, maxAttempts: 2), http)
            try await whileRunning(WebhookDeliveryTests.service(store, [second], clock: ManualClock())) {
                try await eventually(timeout: .seconds(60), "the dead letter") { try cursor(store, "hook") == 1 }
            }
            let letter = try #require(try store.read { try $0.deadLetters(sink: "hook") }.first)
            #expect(letter.attempts == 2)
            #expect(receiver.ids == ["evt_1", "evt_1"])
            #expect(try store.read { try $0.sinkRetry(sink: "hook") } == nil)
        }
    }
}

/// A token in a webhook URL stays out of errors, dead letters and the persisted disable record.
@Suite("Webhook URL secrets", .timeLimit(.minutes(1)))
struct WebhookURLSecretTests {
    @Test func aTokenInTheURLNeverReachesTheStore() async throws {
        let token = "tok-\(UInt64.random(in: 1...UInt64.max))"
        try await withWebhookSetup([{ _, _ in Reply(status: 410) }]) { store, http, receivers in
            let context = ConfigContext(environment: ["HOOK_TOKEN": token])
            let written = receivers[0].url + "?token=${HOOK_TOKEN}"
            let reader = ObjectReader(
                .object([.init("url", .string(written))]),
                at: ConfigPath.root,
                context: context
            )
            let options = WebhookSinkPlugin.Options(from: reader)
            #expect(!context.hasErrors && options.url.hasSuffix(token) && options.displayURL == written)
            let sink = webhookSink(options, http)
            try await Events.append(store, 1...1)
            try await whileRunning(WebhookDeliveryTests.service(store, [sink], clock: ManualClock())) {
                try await eventually(timeout: .seconds(60), "disabled") {
                    try store.read { try $0.sinkDisabled(sink: "hook") } != nil
                }
            }
            #expect(receivers[0].log.count == 1)
            let letter = try #require(try store.read { try $0.deadLetters(sink: "hook") }.first)
            let record = try #require(try store.read { try $0.sinkDisabled(sink: "hook") })
            for text in [letter.lastError, record.reason, record.destination] {
                #expect(!text.contains(token), "\(text)")
            }
            #expect(letter.lastError.contains("${HOOK_TOKEN}"))
        }
    }
}

import Foundation
import Testing
import WatcherCore
import WatcherDelivery
import WatcherSinks
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

/// The pure outbox state machine: no store, no HTTP, time passed in.
@Suite("Delivery state machine")
struct DeliveryStateMachineTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func log(_ seqs: ClosedRange<UInt64>, type: (UInt64) -> String = { _ in "block.new" }) -> [LoggedEvent] {
        seqs.map { LoggedEvent(seq: $0, id: "evt_\($0)", type: type($0), body: Array("{}".utf8)) }
    }

    static func policy(
        maxAttempts: Int? = 5,
        maxAge: Duration? = nil,
        batch: Int = 10
    ) -> DeliveryPolicy {
        DeliveryPolicy(
            maxAttempts: maxAttempts,
            maxAge: maxAge,
            backoff: Backoff(base: .seconds(1), cap: .seconds(8)),
            batchSize: batch
        )
    }

    static func window(_ step: DeliveryStateMachine.Step) throws -> DeliveryStateMachine.Window {
        guard case .deliver(let window) = step else {
            Issue.record("expected a delivery, got \(step)")
            throw TimedOut(what: "a delivery step")
        }
        return window
    }

    @Test func sendsInBatchesAndMovesTheCursorAfterDelivery() throws {
        var machine = DeliveryStateMachine(sink: "s", cursor: 0, filter: EventFilter(), policy: Self.policy(batch: 3))
        let window = try Self.window(machine.plan(Self.log(1...5), firstAppendedAt: nil, now: Self.t0))
        #expect(window.events.map(\.seq) == [1, 2, 3])
        #expect(window.through == 3)
        let commit = machine.record(.init(outcomes: [.delivered, .delivered, .delivered]), for: window, now: Self.t0)
        #expect(commit.cursor == 3)
        #expect(commit.delivered == 3)
        #expect(machine.cursor == 3)
        #expect(machine.plan(Self.log(1...3), firstAppendedAt: nil, now: Self.t0) == .idle)
    }

    @Test func holdsLaterEventsBehindAFailureAndRetriesAfterBackoff() throws {
        var machine = DeliveryStateMachine(sink: "s", cursor: 0, filter: EventFilter(), policy: Self.policy())
        let first = try Self.window(machine.plan(Self.log(1...3), firstAppendedAt: nil, now: Self.t0))
        let commit = machine.record(
            .init(outcomes: [.delivered, .retry(after: nil, reason: "HTTP 500"), .retry(after: nil, reason: "pending")]
            ),
            for: first,
            now: Self.t0
        )
        #expect(commit.cursor == 1)
        #expect(commit.failure == "HTTP 500")
        let delay = try #require(commit.retryIn)
        #expect(delay <= .seconds(1))
        #expect(machine.pending?.seq == 2)
        #expect(machine.pending?.attempts == 1)
        if delay > .milliseconds(1) {
            guard case .wait = machine.plan(Self.log(2...3), firstAppendedAt: nil, now: Self.t0) else {
                Issue.record("expected to wait before the retry")
                return
            }
        }
        let later = Self.t0.addingTimeInterval(delay.seconds)
        let retry = try Self.window(machine.plan(Self.log(2...3), firstAppendedAt: nil, now: later))
        #expect(retry.events.map(\.seq) == [2, 3])
        _ = machine.record(.init(outcomes: [.delivered, .delivered]), for: retry, now: later)
        #expect(machine.cursor == 3)
        #expect(machine.pending == nil)
    }

    @Test func retryAfterOverridesTheBackoff() throws {
        var machine = DeliveryStateMachine(sink: "s", cursor: 0, filter: EventFilter(), policy: Self.policy())
        let window = try Self.window(machine.plan(Self.log(1...1), firstAppendedAt: nil, now: Self.t0))
        let commit = machine.record(
            .init(outcomes: [.retry(after: .seconds(120), reason: "HTTP 429")]),
            for: window,
            now: Self.t0
        )
        #expect(commit.retryIn == .seconds(120))
        #expect(machine.plan(Self.log(1...1), firstAppendedAt: nil, now: Self.t0) == .wait(.seconds(120)))
        #expect(
            machine.plan(Self.log(1...1), firstAppendedAt: nil, now: Self.t0.addingTimeInterval(119))
                == .wait(.seconds(1))
        )
    }

    @Test func deadLettersAfterMaxAttemptsAndMovesOn() throws {
        var machine = DeliveryStateMachine(
            sink: "s",
            cursor: 0,
            filter: EventFilter(),
            policy: Self.policy(maxAttempts: 3)
        )
        var now = Self.t0
        var commits: [DeliveryStateMachine.Commit] = []
        for _ in 0..<3 {
            let window = try Self.window(machine.plan(Self.log(1...2), firstAppendedAt: nil, now: now))
            #expect(window.events.first?.seq == 1)
            commits.append(
                machine.record(.init(outcomes: [.retry(after: nil, reason: "HTTP 503")]), for: window, now: now)
            )
            now = now.addingTimeInterval(10)
        }
        #expect(commits[0].deadLetters.isEmpty && commits[1].deadLetters.isEmpty)
        let letter = try #require(commits[2].deadLetters.first)
        #expect(letter.seq == 1 && letter.attempts == 3 && letter.eventID == "evt_1")
        #expect(letter.lastError.contains("HTTP 503"))
        #expect(commits[2].cursor == 1)
        let next = try Self.window(machine.plan(Self.log(2...2), firstAppendedAt: nil, now: now))
        #expect(next.events.map(\.seq) == [2])
    }

    @Test func deadLettersByAgeCountedFromTheAppendTime() throws {
        var machine = DeliveryStateMachine(
            sink: "s",
            cursor: 0,
            filter: EventFilter(),
            policy: Self.policy(maxAttempts: nil, maxAge: .seconds(60))
        )
        let appended = Self.t0.addingTimeInterval(-50)
        let window = try Self.window(machine.plan(Self.log(1...1), firstAppendedAt: appended, now: Self.t0))
        let early = machine.record(
            .init(outcomes: [.retry(after: .seconds(5), reason: "down")]),
            for: window,
            now: Self.t0
        )
        #expect(early.deadLetters.isEmpty)
        let later = Self.t0.addingTimeInterval(10)
        let again = try Self.window(machine.plan(Self.log(1...1), firstAppendedAt: appended, now: later))
        let commit = machine.record(.init(outcomes: [.retry(after: nil, reason: "down")]), for: again, now: later)
        let letter = try #require(commit.deadLetters.first)
        #expect(letter.attempts == 2)
        #expect(letter.lastError.contains("maxAge"))
    }

    @Test func rejectDeadLettersAtOnceAndDisableStopsTheSink() throws {
        var machine = DeliveryStateMachine(sink: "s", cursor: 0, filter: EventFilter(), policy: Self.policy())
        let window = try Self.window(machine.plan(Self.log(1...3), firstAppendedAt: nil, now: Self.t0))
        let rejected = machine.record(
            .init(outcomes: [.reject(reason: "bad"), .retry(after: nil, reason: "pending")]),
            for: window,
            now: Self.t0
        )
        #expect(rejected.deadLetters.map(\.seq) == [1])
        #expect(rejected.cursor == 1)
        let next = try Self.window(machine.plan(Self.log(2...3), firstAppendedAt: nil, now: Self.t0))
        let gone = machine.record(
            .init(outcomes: [.reject(reason: "410"), .retry(after: nil, reason: "pending")], disable: "HTTP 410 Gone"),
            for: next,
            now: Self.t0
        )
        #expect(gone.disable == "HTTP 410 Gone")
        #expect(gone.deadLetters.map(\.seq) == [2])
        #expect(machine.disabled == "HTTP 410 Gone")
        #expect(machine.plan(Self.log(3...3), firstAppendedAt: nil, now: Self.t0) == .idle)
        machine.enable()
        #expect(try Self.window(machine.plan(Self.log(3...3), firstAppendedAt: nil, now: Self.t0)).events.count == 1)
    }

    @Test func skipsFilteredEventsAndMovesTheCursorPastThem() throws {
        let types: [UInt64: String] = [1: "block.new", 2: "address.tx.confirmed", 3: "price.updated", 4: "block.new"]
        var machine = DeliveryStateMachine(
            sink: "s",
            cursor: 0,
            filter: EventFilter(["address.*"]),
            policy: Self.policy()
        )
        let window = try Self.window(
            machine.plan(Self.log(1...4) { types[$0] ?? "" }, firstAppendedAt: nil, now: Self.t0)
        )
        #expect(window.events.map(\.seq) == [2])
        #expect(window.skipped == [1, 3, 4])
        let commit = machine.record(.init(outcomes: [.delivered]), for: window, now: Self.t0)
        #expect(commit.cursor == 4 && commit.skipped == 3 && commit.delivered == 1)

        var only = DeliveryStateMachine(sink: "t", cursor: 0, filter: EventFilter(["price.*"]), policy: Self.policy())
        let none = try Self.window(only.plan(Self.log(1...2), firstAppendedAt: nil, now: Self.t0))
        #expect(none.events.isEmpty)
        #expect(only.record(.init(outcomes: []), for: none, now: Self.t0).cursor == 2)
    }

    @Test func forgetsARetryWhoseEventWasTrimmed() throws {
        var machine = DeliveryStateMachine(sink: "s", cursor: 0, filter: EventFilter(), policy: Self.policy())
        let window = try Self.window(machine.plan(Self.log(1...2), firstAppendedAt: nil, now: Self.t0))
        _ = machine.record(.init(outcomes: [.retry(after: .seconds(60), reason: "x")]), for: window, now: Self.t0)
        let after = try Self.window(machine.plan(Self.log(2...2), firstAppendedAt: nil, now: Self.t0))
        #expect(after.events.map(\.seq) == [2])
        #expect(machine.pending == nil)
    }
}

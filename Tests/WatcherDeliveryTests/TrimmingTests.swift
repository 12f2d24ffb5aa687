import Foundation
import MetricsTestKit
import Testing
import WatcherCore
import WatcherDelivery
import WatcherEventLog
import WatcherSinks
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

@Suite("Log trimming")
struct TrimmingTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// Plans a pass over a log holding 1…`last`; by default by cursors alone (no marks, no retention, nothing kept).
    static func plan(
        last: UInt64 = 10,
        cursors: [UInt64],
        marks: [AppendMark] = [],
        now: Date = t0,
        retention: Duration? = nil,
        keep: Int = 0
    ) -> TrimPlan {
        TrimPlan.plan(first: 1, last: last, cursors: cursors, marks: marks, now: now, retention: retention, keep: keep)
    }

    /// (the configured sinks' cursors, entries kept anyway, the expected `before`) over a log of 1…10.
    @Test(
        arguments: [
            ([3, 7], 0, 4),  // the slowest sink passed 3
            ([10, 10], 4, 7),  // every sink passed 10; the newest 4 stay
            ([10, 0], 0, nil),  // a new sink has passed nothing
            ([], 0, nil),  // no sinks: nothing is surely delivered
        ] as [([UInt64], Int, UInt64?)]
    )
    func planKeepsWhatTheSlowestSinkHasNotPassed(cursors: [UInt64], keep: Int, before: UInt64?) {
        let plan = Self.plan(cursors: cursors, keep: keep)
        #expect(plan == TrimPlan(before: before, byAge: false, mark: AppendMark(seq: 10, time: Self.t0)))
    }

    @Test func planTrimsByAgeOnlyWhatIsSurelyOlder() {
        let marks = [
            AppendMark(seq: 3, time: Self.t0),
            AppendMark(seq: 8, time: Self.t0.addingTimeInterval(3600)),
        ]
        let now = Self.t0.addingTimeInterval(2 * 3600)
        let plan = Self.plan(last: 9, cursors: [0], marks: marks, now: now, retention: .seconds(5400))
        #expect(plan.before == 4)
        #expect(plan.byAge)
        #expect(plan.mark == AppendMark(seq: 9, time: now))
        let young = Self.plan(last: 8, cursors: [0], marks: marks, now: now, retention: .seconds(3 * 3600))
        #expect(young.before == nil)
        #expect(young.mark == nil)
    }

    @Test func trimsTheStoreBehindTheSlowestConfiguredSink() async throws {
        try await withStore { store, _ in
            try await Events.append(store, 1...10)
            try await store.write { txn in
                try txn.setCursor(sink: "fast", 7)
                try txn.setCursor(sink: "slow", 3)
                try txn.setCursor(sink: "removed", 1)
            }
            let trimmer = LogTrimmer(
                store: store,
                sinks: ["fast", "slow"],
                retention: nil,
                logger: quietLogger,
                time: .system
            )
            let result = try await trimmer.trimOnce()
            #expect(result.removed == 3)
            #expect(try store.read { try $0.firstEventSeq() } == 4)
            #expect(try store.read { try $0.events().map(\.seq) } == Array(4...10))
            #expect(try store.read { try $0.eventSeq(id: "evt_3") } == nil)
            #expect(try store.read { try $0.eventSeq(id: "evt_4") } == 4)

            try await store.write { try $0.setCursor(sink: "slow", 10) }
            let keeping = LogTrimmer(
                store: store,
                sinks: ["fast", "slow"],
                retention: nil,
                keep: 2,
                logger: quietLogger,
                time: .system
            )
            try await keeping.trimOnce()
            #expect(try store.read { try $0.firstEventSeq() } == 8)
        }
    }

    @Test func trimsByAgeEvenBehindALaggingSinkWhichThenCountsTheLoss() async throws {
        try await withStore { store, directory in
            let clock = ManualClock()
            let time = clock.timeSource()
            let trimmer = LogTrimmer(
                store: store,
                sinks: ["lagging"],
                retention: .seconds(7200),
                logger: quietLogger,
                time: time
            )
            try await Events.append(store, 1...3)
            try await store.write { try $0.setCursor(sink: "lagging", 1) }
            try await trimmer.trimOnce()
            clock.advance(by: .seconds(3600))
            try await Events.append(store, 4...5)
            try await trimmer.trimOnce()
            #expect(try store.read { try $0.firstEventSeq() } == 2, "the sink passed 1; 2 and 3 are young")

            clock.advance(by: .seconds(5400))
            let result = try await trimmer.trimOnce()
            #expect(result.plan.byAge)
            #expect(result.removed == 2)
            #expect(try store.read { try $0.events().map(\.seq) } == [4, 5])
            #expect(try store.read { try $0.appendMarks().map(\.seq) } == [5])

            let path = directory.file("lagging.jsonl")
            let sink = try FileSink(id: "lagging", options: .init(path: path), time: .system)
            let counts = TestMetrics()
            let service = DeliveryService(
                store: store,
                signal: LogSignal(),
                routes: [.init(sink: sink)],
                retention: .seconds(7200),
                logger: quietLogger,
                time: time,
                options: testOptions,
                metrics: counts.watcher
            )
            try await whileRunning(service) {
                try await eventually(timeout: .seconds(60), "the lagging sink to catch up") {
                    try cursor(store, "lagging") == 5
                }
            }
            #expect(fileIDs(path) == ["evt_4", "evt_5"])
            #expect(counts.sinkEvents("lagging", "expired") == 2)
        }
    }
}

import Foundation
import MetricsTestKit
import Testing
import WatcherCore
import WatcherDelivery
import WatcherEventLog
import WatcherHTTP
import WatcherSinks
import WatcherStorage
import WatcherTestSupport
import WatcherTesting

@Suite("Cursors and filters", .timeLimit(.minutes(1)))
struct CursorTests {
    @Test func cursorSurvivesAStoreRestartAndDeliveryResumesRightAfterIt() async throws {
        let directory = try TemporaryDirectory("sinks")
        defer { directory.remove() }
        try await withTransport { http in
            try await withReceivers([{ _, _ in .ok }]) { receivers in
                let receiver = receivers[0]
                let sink = WebhookSink(
                    id: "hook",
                    options: hookOptions(receiver.url),
                    http: http,
                    logger: quietLogger,
                    time: .system
                )
                let filePath = directory.file("out.jsonl")

                let store = try directory.openStore()
                try await Events.append(store, 1...5)
                let file = try FileSink(id: "file", options: .init(path: filePath), time: .system)
                let first = DeliveryService(
                    store: store,
                    signal: LogSignal(),
                    routes: [.init(sink: sink), .init(sink: file)],
                    retention: nil,
                    logger: quietLogger,
                    time: .system,
                    options: testOptions
                )
                try await whileRunning(first) {
                    try await eventually(timeout: .seconds(60), "both sinks at 5") {
                        try cursor(store, "hook") == 5 && cursor(store, "file") == 5
                    }
                }
                await store.close()

                let again = try directory.openStore()
                #expect(try again.read { try $0.cursors() } == ["hook": 5, "file": 5])
                try await Events.append(again, 6...8)
                let reopenedFile = try FileSink(id: "file", options: .init(path: filePath), time: .system)
                let counts = TestMetrics()
                let second = DeliveryService(
                    store: again,
                    signal: LogSignal(),
                    routes: [.init(sink: sink), .init(sink: reopenedFile)],
                    retention: nil,
                    logger: quietLogger,
                    time: .system,
                    options: testOptions,
                    metrics: counts.watcher
                )
                try await whileRunning(second) {
                    try await eventually(timeout: .seconds(60), "both sinks at 8") {
                        try cursor(again, "hook") == 8 && cursor(again, "file") == 8
                    }
                }
                await again.close()
                #expect(receiver.ids == (1...8).map(Events.id))
                #expect(fileIDs(filePath) == (1...8).map(Events.id))
                #expect(counts.sinkEvents("hook", "delivered") == 3)
            }
        }
    }

    @Test func globsFilterPerSinkAndTheCursorMovesPastSkippedEvents() async throws {
        try await withStore { store, directory in
            let types = ["block.new", "address.tx.confirmed", "price.updated", "address.balance.changed", "block.new"]
            try await Events.append(store, 1...5, types: types)
            let addresses = try FileSink(
                id: "addresses",
                options: .init(path: directory.file("a.jsonl")),
                time: .system
            )
            let everything = try FileSink(id: "all", options: .init(path: directory.file("all.jsonl")), time: .system)
            let counts = TestMetrics()
            let service = DeliveryService(
                store: store,
                signal: LogSignal(),
                routes: [
                    .init(sink: addresses, filter: EventFilter(["address.*"])),
                    .init(sink: everything),
                ],
                retention: nil,
                logger: quietLogger,
                time: .system,
                options: testOptions,
                metrics: counts.watcher
            )
            try await whileRunning(service) {
                try await eventually(timeout: .seconds(60), "both cursors at the end") {
                    try cursor(store, "addresses") == 5 && cursor(store, "all") == 5
                }
            }
            #expect(fileIDs(directory.file("a.jsonl")) == ["evt_2", "evt_4"])
            #expect(fileIDs(directory.file("all.jsonl")) == (1...5).map(Events.id))
            let state = try #require(service.status.state(sink: "addresses"))
            #expect(counts.sinkEvents("addresses", "delivered") == 2 && counts.sinkEvents("addresses", "skipped") == 3)
            #expect(state.lag == 0)
        }
    }

    @Test func wakesOnTheSignalNotJustThePoll() async throws {
        try await withStore { store, directory in
            let path = directory.file("out.jsonl")
            let sink = try FileSink(id: "file", options: .init(path: path), time: .system)
            let signal = LogSignal()
            let service = DeliveryService(
                store: store,
                signal: signal,
                routes: [.init(sink: sink)],
                retention: nil,
                logger: quietLogger,
                time: .system,
                options: .init(pollInterval: .seconds(3600), trimInterval: .seconds(3600), keepDelivered: 0)
            )
            try await whileRunning(service) {
                try await eventually(timeout: .seconds(60), "the worker idle at the start") {
                    service.status.state(sink: "file")?.head == 0
                }
                for n in 1...3 {
                    try await Events.append(store, n...n, signal: signal)
                    try await eventually(timeout: .seconds(5), "event \(n) delivered on the signal") {
                        try cursor(store, "file") == UInt64(n)
                    }
                }
            }
            #expect(fileIDs(path) == ["evt_1", "evt_2", "evt_3"])
        }
    }
}

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

@Suite("File sink", .timeLimit(.minutes(1)))
struct FileSinkTests {
    static func events(_ range: ClosedRange<Int>) -> [SinkEvent] {
        range.map { SinkEvent(seq: UInt64($0), id: Events.id($0), type: "block.new", body: Events.body($0)) }
    }

    @Test func rotatesBySizeKeepingN() async throws {
        let directory = try TemporaryDirectory("sinks")
        defer { directory.remove() }
        let path = directory.file("out/events.jsonl")
        let sink = try FileSink(id: "file", options: .init(path: path, maxBytes: 4096, keep: 2), time: .system)
        for start in stride(from: 1, through: 100, by: 10) {
            let outcomes = await sink.deliver(Self.events(start...(start + 9)))
            #expect(outcomes == Array(repeating: .delivered, count: 10))
        }
        await sink.close()
        let files = [path + ".2", path + ".1", path]
        for file in files {
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
            #expect(size <= 4096 && size > 0)
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".3"))
        let ids = files.flatMap(fileIDs)
        let last = try #require(ids.last)
        #expect(last == "evt_100")
        #expect(ids == Array((100 - ids.count + 1)...100).map(Events.id))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test func fsyncsPerPolicy() async throws {
        let directory = try TemporaryDirectory("sinks")
        defer { directory.remove() }
        let always = try FileSink(
            id: "a",
            options: .init(path: directory.file("a.jsonl"), fsync: .always),
            time: .system
        )
        for n in 1...3 { _ = await always.deliver(Self.events(n...n)) }
        #expect(always.fsyncCount == 3)
        await always.close()
        #expect(always.fsyncCount == 3)

        let clock = ManualClock()
        let interval = try FileSink(
            id: "i",
            options: .init(path: directory.file("i.jsonl"), fsync: .interval(.seconds(10))),
            time: clock.timeSource()
        )
        _ = await interval.deliver(Self.events(1...1))
        clock.advance(by: .seconds(5))
        _ = await interval.deliver(Self.events(2...2))
        await interval.idle()
        #expect(interval.fsyncCount == 0)
        clock.advance(by: .seconds(6))
        await interval.idle()
        #expect(interval.fsyncCount == 1)
        await interval.idle()
        #expect(interval.fsyncCount == 1)
        _ = await interval.deliver(Self.events(3...3))
        #expect(interval.fsyncCount == 1)
        await interval.close()
        #expect(interval.fsyncCount == 2)
        #expect(fileIDs(directory.file("i.jsonl")) == ["evt_1", "evt_2", "evt_3"])
    }

    @Test func shutdownFlushesThroughTheService() async throws {
        try await withStore { store, directory in
            let path = directory.file("out.jsonl")
            let sink = try FileSink(
                id: "file",
                options: .init(path: path, fsync: .interval(.seconds(3600))),
                time: .system
            )
            try await Events.append(store, 1...3)
            let service = DeliveryService(
                store: store,
                signal: LogSignal(),
                routes: [.init(sink: sink)],
                retention: nil,
                logger: quietLogger,
                time: .system,
                options: testOptions
            )
            try await whileRunning(service) {
                try await eventually(timeout: .seconds(60), "delivery") { try cursor(store, "file") == 3 }
                #expect(sink.fsyncCount == 0)
            }
            #expect(sink.fsyncCount == 1)
            #expect(fileIDs(path) == ["evt_1", "evt_2", "evt_3"])
        }
    }

    /// A kill after the file write but before the cursor commit, and another in the middle of a line: after the
    /// restart every id is in the file exactly once and every line is whole.
    @Test func holdsEachIDOnceAcrossACrash() async throws {
        try await withStore { store, directory in
            let path = directory.file("out.jsonl")
            try await Events.append(store, 1...12)
            let before = try FileSink(id: "file", options: .init(path: path), time: .system)
            _ = await before.deliver(Self.events(1...10))
            await before.close()
            try await store.write { try $0.setCursor(sink: "file", 4) }
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Array(Events.body(11).prefix(30)))
            try handle.close()

            let after = try FileSink(id: "file", options: .init(path: path), time: .system)
            let counts = TestMetrics()
            let service = DeliveryService(
                store: store,
                signal: LogSignal(),
                routes: [.init(sink: after)],
                retention: nil,
                logger: quietLogger,
                time: .system,
                options: testOptions,
                metrics: counts.watcher
            )
            try await whileRunning(service) {
                try await eventually(timeout: .seconds(60), "the restarted sink to catch up") {
                    try cursor(store, "file") == 12
                }
            }
            #expect(fileIDs(path) == (1...12).map(Events.id))
            #expect(counts.sinkEvents("file", "delivered") == 8)
        }
    }

    @Test func dedupeSeesAcrossARotation() async throws {
        let directory = try TemporaryDirectory("sinks")
        defer { directory.remove() }
        let path = directory.file("r.jsonl")
        let options = FileSinkPlugin.Options(path: path, maxBytes: 4096, keep: 1)
        let first = try FileSink(id: "file", options: options, time: .system)
        _ = await first.deliver(Self.events(1...30))
        await first.close()
        let written = fileIDs(path + ".1") + fileIDs(path)
        let reopened = try FileSink(id: "file", options: options, time: .system)
        _ = await reopened.deliver(Self.events(25...32))
        await reopened.close()
        #expect(fileIDs(path + ".1") + fileIDs(path) == written + ["evt_31", "evt_32"])
    }
}

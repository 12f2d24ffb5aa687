import Foundation
import Testing
import WatcherCore
import WatcherEventLog
import WatcherTestSupport

@testable import WatcherStorage

/// The event log as one thing: state and events commit together, each id once, in order, and readers are woken.
@Suite(.timeLimit(.minutes(1)))
struct EventLogTests {
    struct Fact: LoggableEvent {
        var id: String
        var type = "block.new"
        var body: [UInt8] = Array("{}".utf8)
    }

    struct Refused: Error {}

    @Test func aCommitAppendsEachIdOnceInOrderWithItsState() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let log = EventLog(store: try Store(path: dir.storePath))
        let first = try await log.commit { txn in
            try txn.setTip(chain: "btc", BlockRef(height: 1, hash: String(repeating: "a", count: 64)))
            return [Fact(id: "evt_1"), Fact(id: "evt_2")]
        }
        #expect(first.map(\.id) == ["evt_1", "evt_2"])
        // A fact told again is refused; the new one is appended after the others.
        let second = try await log.commit { _ in [Fact(id: "evt_2"), Fact(id: "evt_3", type: "price.updated")] }
        #expect(second.map(\.id) == ["evt_3"])
        #expect(try log.entries().map(\.id) == ["evt_1", "evt_2", "evt_3"])
        #expect(try log.entries(from: 3).map(\.type) == ["price.updated"])
        #expect(try log.head() == 3)
        #expect(try log.store.read { try $0.tip(chain: "btc")?.height } == 1)
    }

    @Test func aFailedCommitAppendsNothingAndKeepsNoState() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let log = EventLog(store: try Store(path: dir.storePath))
        await #expect(throws: Refused.self) {
            try await log.commit { txn -> [Fact] in
                try txn.setTip(chain: "btc", BlockRef(height: 7, hash: String(repeating: "b", count: 64)))
                _ = try txn.appendEvent(id: "evt_lost", type: "block.new", body: [])
                throw Refused()
            }
        }
        #expect(try log.head() == 0)
        #expect(try log.entries().isEmpty)
        #expect(try log.store.read { try $0.tip(chain: "btc") } == nil)
    }

    @Test func aCommitWakesEveryReader() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let log = EventLog(store: try Store(path: dir.storePath))
        var first = log.subscribe().makeAsyncIterator()
        var second = log.subscribe().makeAsyncIterator()
        try await log.commit { _ in [Fact(id: "evt_1")] }
        #expect(await first.next() != nil)
        #expect(await second.next() != nil)
        // A repeated fact appends nothing; a new one wakes the reader again.
        try await log.commit { _ in [Fact(id: "evt_1")] }
        try await log.commit { _ in [Fact(id: "evt_2")] }
        #expect(await first.next() != nil)
        #expect(try log.entries(from: 2).map(\.id) == ["evt_2"])
    }
}

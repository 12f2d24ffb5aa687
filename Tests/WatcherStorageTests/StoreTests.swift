import Foundation
import Testing
import WatcherCore
import WatcherTestSupport

@testable import WatcherStorage

/// The typed tables.
struct StoreTests {
    @Test func eventLogAppendsOnceAndTrims() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let store = try Store(path: dir.storePath)
        let seqs = try await store.write { txn throws in
            [
                try txn.appendEvent(id: "evt_a", type: "block.new", body: Array("A".utf8)),
                try txn.appendEvent(id: "evt_b", type: "price.updated", body: Array("B".utf8)),
                try txn.appendEvent(id: "evt_a", type: "block.new", body: Array("A again".utf8)),
            ]
        }
        #expect(seqs == [1, 2, nil])
        let events = try store.read { try $0.events(from: 0) }
        #expect(
            events == [
                LoggedEvent(seq: 1, id: "evt_a", type: "block.new", body: Array("A".utf8)),
                LoggedEvent(seq: 2, id: "evt_b", type: "price.updated", body: Array("B".utf8)),
            ]
        )
        let removed = try await store.write { try $0.trimEvents(before: 2) }
        #expect(removed == 1)
        #expect(try store.read { try $0.firstEventSeq() } == 2)
        // Sequence numbers are never reused after a trim.
        let next = try await store.write { txn throws in
            _ = try txn.trimEvents(before: 3)
            return try txn.appendEvent(id: "evt_c", type: "x.y", body: [])
        }
        #expect(next == 3)
        await store.close()
    }

    @Test func cursorsHeadersAccountsAndPricesRoundTrip() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let store = try Store(path: dir.storePath)
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        try await store.write { txn throws in
            try txn.setCursor(sink: "file", 7)
            for height in 800_000..<800_130 {
                let header = BlockHeader(
                    hash: String(format: "%064x", height),
                    height: height,
                    time: time,
                    merkleRoot: String(repeating: "a", count: 64),
                    nonce: 42,
                    txCount: 3,
                    previousHash: nil
                )
                try txn.putHeader(chain: "btc", header, keep: 100)
            }
            try txn.setTip(chain: "btc", BlockRef(height: 800_129, hash: String(format: "%064x", 800_129)))
            try txn.putAccount(
                Account(
                    chain: "btc",
                    address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                    label: "Savings",
                    addedAt: time
                )
            )
            try txn.putPrice(
                PriceQuote(currency: "usd", price: Decimal(string: "65000.123456789")!, time: time, provider: "cb")
            )
        }
        try store.read { txn throws in
            #expect(try txn.cursor(sink: "file") == 7)
            #expect(try txn.cursor(sink: "other") == 0)
            let headers = try txn.recentHeaders(chain: "btc", limit: 1000)
            #expect(headers.count == 100)
            #expect(headers.first?.height == 800_129)
            #expect(headers.last?.height == 800_030)
            #expect(try txn.tip(chain: "btc")?.height == 800_129)
            #expect(try txn.accounts().map(\.label) == ["Savings"])
            #expect(try txn.price(currency: "USD")?.price == Decimal(string: "65000.123456789")!)
        }
        try await store.write { try $0.removeHeaders(chain: "btc", from: 800_128) }
        #expect(try store.read { try $0.recentHeaders(chain: "btc", limit: 1).first?.height } == 800_127)
        await store.close()
    }

    @Test func refusesAStoreFromANewerSchema() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        do {
            let env = try Environment(path: dir.storePath)
            let meta = try openTable(env, "meta")
            try writeNow(env) { try $0.put(meta, Array("schema_version".utf8), UInt32(99).bigEndianBytes) }
            env.close()
        }
        #expect {
            _ = try Store(path: dir.storePath)
        } throws: { error in
            let text = "\(error)"
            return text.contains("schema version 99")
                && text.contains("understands up to version \(Store.schemaVersion)")
        }
    }

    @Test func readOnlyStoreSeesWritesAndRefusesToWrite() async throws {
        let dir = try TemporaryDirectory("lmdb")
        defer { dir.remove() }
        let store = try Store(path: dir.storePath)
        try await store.write { try $0.setCursor(sink: "s", 3) }
        await store.close()
        // (One environment per process at a time: LMDB forbids opening it twice in one process.)
        let reader = try Store(path: dir.storePath, options: .init(readOnly: true))
        #expect(try reader.read { try $0.cursor(sink: "s") } == 3)
        await #expect(throws: StorageError.writerStopped) { try await reader.write { try $0.setCursor(sink: "s", 4) } }
        await reader.close()
    }
}

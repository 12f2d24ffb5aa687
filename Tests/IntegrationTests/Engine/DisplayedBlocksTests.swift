import Foundation
import Testing
import WatcherConfiguration
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherStorage
import WatcherTesting

@testable import WatcherApp

/// A fresh data directory shows the recent blocks from the first minute (the Blocks tab, `watcher blocks`), though
/// only new blocks are announced. Tried as a new user would: 20 blocks mined, then `watcher run --http` with
/// `maxBackfill: 30`, and the tab listed the tip alone.
@Suite(.serialized)
struct DisplayedBlocksTests {
    @Test func aFreshDataDirectoryStoresTwentyBlocksButAnnouncesOnlyNewOnes() async throws {
        try await Harness.withData(EngineHarness.quiet) { simnet, client, data in
            let mined = try await simnet.mine(count: 25)
            let config = try EngineHarness.config(
                simnet,
                data,
                watches: #"[{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s", "maxBackfill": 30}]"#
            )
            try await EngineHarness.running(config, client: client) { store in
                let tip = try #require(mined.last)
                try await eventually(timeout: .seconds(60), "20 recent blocks stored") {
                    try store.read { try $0.recentHeaders(chain: "btc", limit: 100) }.count >= 20
                }
                let headers = try store.read { try $0.recentHeaders(chain: "btc", limit: 100) }
                #expect(headers.map(\.height) == Array((tip.height - 19)...tip.height).reversed())
                for header in headers {
                    #expect(header.hash == mined.first { $0.height == header.height }?.hash, "height \(header.height)")
                }
                // Shown, not announced: only the tip the watch started at is a block.new.
                let announced = try EngineHarness.events(store).filter { $0["type"] == .string("block.new") }
                #expect(announced.count == 1)
                #expect(announced.first?["data"]?["hash"] == .string(tip.hash))

                let next = try #require(try await simnet.mine(count: 1).last)
                try await EngineHarness.event(store, "block.new", where: EngineHarness.has("hash", next.hash))
                let after = try store.read { try $0.recentHeaders(chain: "btc", limit: 100) }
                #expect(after.first?.hash == next.hash)
                #expect(after.count == 21)
            }
        }
    }
}

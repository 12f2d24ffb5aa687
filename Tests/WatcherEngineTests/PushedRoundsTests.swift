import Foundation
import Testing
import WatcherCore
import WatcherStorage

@testable import WatcherEngine

/// ``PushedRounds``: a round a block started is left to a push that pushes every change, except the first one, those
/// while the connection is down or after a (re)subscription, and every round from a reorg until the chain has grown
/// past the height it replaced, also when the job never saw the replaced block. Real LMDB for the stored tip.
struct PushedRoundsTests {
    struct Rig {
        let rounds: PushedRounds
        let push: PushState
        let wakeup: BlockWakeup
        let store: Store

        /// A block committed at `height` (the chain job's store write and wake-up).
        func block(_ height: Int, replacing replaced: Int? = nil) async throws {
            try await store.write { try $0.setTip(chain: "btc", BlockRef(height: height, hash: "h\(height)")) }
            wakeup.notify(replaced: replaced)
        }
    }

    static func withRig(_ body: (Rig) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-pushed-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try Store(path: path)
        let wakeup = BlockWakeup()
        let push = PushState()
        let rig = Rig(
            rounds: PushedRounds(push: push, wakeup: wakeup, chain: "btc", store: store),
            push: push,
            wakeup: wakeup,
            store: store
        )
        push.subscribed()
        do {
            try await rig.block(100)
            try await body(rig)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test func aBlockIsLeftToAConnectedPushButTheFirstAndScheduledRoundsRun() async throws {
        try await Self.withRig { rig in
            #expect(try rig.rounds.leftToPush() == false, "the first round")
            try await rig.block(101)
            #expect(try rig.rounds.leftToPush() == true, "a block the push covers")
            #expect(try rig.rounds.leftToPush() == false, "a round due by the schedule (no new block)")
            rig.push.setConnected(false)
            try await rig.block(102)
            #expect(try rig.rounds.leftToPush() == false, "the connection is down")
            rig.push.subscribed()
            try await rig.block(103)
            #expect(try rig.rounds.leftToPush() == false, "the first round after a resubscription")
            try await rig.block(104)
            #expect(try rig.rounds.leftToPush() == true)
        }
    }

    /// Block 101 arrives and is replaced between two rounds: the job never saw it, but a transaction confirmed in it
    /// may be back at the same height in the new block, which changes no Electrum status.
    @Test func roundsRunInFullFromAReorgTheJobNeverSawUntilTheChainGrowsPastIt() async throws {
        try await Self.withRig { rig in
            #expect(try rig.rounds.leftToPush() == false, "the first round")
            try await rig.block(101)
            try await rig.block(101, replacing: 101)
            #expect(try rig.rounds.leftToPush() == false, "the round after the reorg")
            try await rig.block(101, replacing: 101)
            #expect(try rig.rounds.leftToPush() == false, "another reorg at the same height")
            try await rig.block(102)
            #expect(try rig.rounds.leftToPush() == false, "the first round past the replaced height")
            try await rig.block(103)
            #expect(try rig.rounds.leftToPush() == true, "settled")
        }
    }

    @Test func theHighestReplacedHeightIsKeptAcrossReorgs() async throws {
        try await Self.withRig { rig in
            _ = try rig.rounds.leftToPush()
            try await rig.block(105, replacing: 105)
            try await rig.block(103, replacing: 103)
            #expect(rig.wakeup.reorgs == BlockWakeup.Reorgs(count: 2, highestReplaced: 105))
            #expect(try rig.rounds.leftToPush() == false)
            try await rig.block(104)
            #expect(try rig.rounds.leftToPush() == false, "below the highest replaced height")
            try await rig.block(106)
            #expect(try rig.rounds.leftToPush() == false, "the first round past it")
            try await rig.block(107)
            #expect(try rig.rounds.leftToPush() == true)
        }
    }
}

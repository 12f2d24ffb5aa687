import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// The fork walk and the chain reducer, on values alone.
struct ChainSyncTests {
    /// A memory that followed `chain` block by block from its start.
    func followed(_ chain: TestChain, keepHeaders: Int = 100) throws -> ChainMemory {
        var memory = ChainMemory()
        var replay = chain
        let top = chain.tipHeight
        replay.tipHeight = chain.headers.keys.min()! + 1
        while replay.tipHeight <= top {
            (memory, _, _) = try replay.poll(memory, keepHeaders: keepHeaders)
            replay.tipHeight += 1
        }
        return memory
    }

    @Test func firstPollStoresTheTipAndAnnouncesIt() throws {
        let chain = TestChain(tip: 800_010)
        let (memory, events, outcome) = try chain.poll(ChainMemory())
        #expect(outcome.fork == nil && outcome.headers.map(\.height) == [800_010])
        #expect(memory.tip == chain.tip)
        #expect(events.map(\.type) == ["block.new"])
        #expect(events[0].data?["height"] == .number("800010"))
    }

    @Test func oneNewBlockCostsOneHeader() throws {
        var chain = TestChain(tip: 800_010)
        let memory = try followed(chain)
        chain.mine(1)
        let (outcome, fetched) = try chain.sync(memory, maxBackfill: 100)
        #expect(fetched == [800_011])
        #expect(outcome.fork == nil && !outcome.unchanged)
    }

    @Test(arguments: [0, 1, 100])
    func gapsAfterDowntimeNeverTrap(maxBackfill: Int) throws {
        var chain = TestChain(tip: 800_010)
        let memory = try followed(chain)
        chain.mine(10)
        let (next, events, outcome) = try chain.poll(memory, maxBackfill: maxBackfill)
        let announced = min(maxBackfill, 9) + 1
        #expect(outcome.headers.count == announced)
        #expect(outcome.skipped == 10 - announced)
        #expect(events.count == announced)
        #expect(events.last?.data?["height"] == .number("800020"))
        #expect(next.tip == chain.tip)
        // Without a reorg the walk never goes below the stored tip.
        #expect(outcome.fork == nil)
    }

    @Test func theImplicitTipTrackerAnnouncesNothing() throws {
        var chain = TestChain(tip: 800_010)
        let memory = try followed(chain)
        chain.mine(3)
        let (next, events, _) = try chain.poll(memory, maxBackfill: 0, announce: false)
        #expect(events.isEmpty)
        #expect(next.tip == chain.tip)
    }

    @Test(arguments: 1...6)
    func reorgsFindTheTrueFork(depth: Int) throws {
        var chain = TestChain(tip: 800_020)
        let memory = try followed(chain)
        chain.reorg(depth: depth)
        chain.mine(1)
        let (next, events, outcome) = try chain.poll(memory)
        #expect(outcome.fork == 800_020 - depth)
        #expect(outcome.orphaned.count == depth)
        #expect(outcome.headers.map(\.height) == Array((800_021 - depth)...800_021))
        #expect(events.first?.type == "block.reorged")
        #expect(events.first?.data?["depth"] == .number("\(depth)"))
        #expect(events.first?.data?["forkHeight"] == .number("\(800_020 - depth)"))
        #expect(events.dropFirst().allSatisfy { $0.type == "block.new" })
        for height in (800_021 - depth)...800_021 { #expect(next.hashes[height] == chain.hash(height)) }
    }

    @Test func aReorgDeeperThanTheHeaderWindowFindsTheTrueFork() throws {
        var chain = TestChain(tip: 800_035)
        let memory = try followed(chain, keepHeaders: 20)
        #expect(memory.headers.count == 20)
        chain.reorg(depth: 24)
        chain.mine(1)
        let (_, events, outcome) = try chain.poll(memory, keepHeaders: 20)
        #expect(outcome.fork == 800_011)
        #expect(!outcome.beyondMemory)
        #expect(events.first?.data?["depth"] == .number("24"))
        #expect(events.first?.data?["forkHeight"] == .number("800011"))
    }

    @Test func aReorgAcrossGapsInTheMemoryIsMeasuredFromWhatIsKnown() throws {
        var chain = TestChain(tip: 800_010)
        var memory = try followed(chain)
        // Downtime with maxBackfill 0: only the tip (and, from its parent hash, the height below) are known.
        chain.mine(4)
        (memory, _, _) = try chain.poll(memory, maxBackfill: 0)
        #expect(memory.hashes[800_012] == nil && memory.hashes[800_011] == nil && memory.hashes[800_013] != nil)
        chain.reorg(depth: 5)
        let (_, events, outcome) = try chain.poll(memory, maxBackfill: 0)
        #expect(outcome.fork == 800_009)
        #expect(events.first?.data?["depth"] == .number("5"))
    }

    @Test func aLaggingProviderChangesNothing() throws {
        var chain = TestChain(tip: 800_010)
        let memory = try followed(chain)
        chain.tipHeight = 800_008
        let (next, events, outcome) = try chain.poll(memory)
        #expect(outcome.unchanged)
        #expect(events.isEmpty && next == memory)
    }

    @Test func theSameTipTwiceIsOneObservation() throws {
        var chain = TestChain(tip: 800_010)
        var memory = try followed(chain)
        chain.mine(2)
        let first: [NewEvent]
        (memory, first, _) = try chain.poll(memory)
        let (again, second, outcome) = try chain.poll(memory)
        #expect(first.count == 2 && second.isEmpty && outcome.unchanged && again == memory)
    }

    @Test func providersWithoutHeadersFollowTheTipOnly() throws {
        var chain = TestChain(tip: 800_010)
        let memory = try followed(chain)
        chain.mine(2)
        let (outcome, fetched) = try chain.sync(memory, maxBackfill: 100, fetchesHeaders: false)
        #expect(fetched.isEmpty && outcome.fork == nil && outcome.headers.isEmpty)
        chain.reorg(depth: 1)
        let (reorg, _) = try chain.sync(
            ChainReducer.reduce(
                memory,
                outcome,
                settings: .init(chain: "btc", watch: "t", announce: false, keepHeaders: 5),
                now: Date()
            ).0,
            maxBackfill: 0,
            fetchesHeaders: false
        )
        #expect(reorg.fork == 800_011)
    }

    @Test func aHeaderThatContradictsTheTipAbandonsTheRound() throws {
        let chain = TestChain(tip: 800_010)
        var sync = ChainSync(memory: ChainMemory(), tip: chain.tip, maxBackfill: 0)
        #expect(sync.next() == .header(800_010))
        #expect(throws: ChainSync.Inconsistent.self) {
            try sync.receive(TestChain.header(800_010, branch: "other", parent: nil))
        }
    }
}

@Suite struct ChainMemoryDisplayTests {
    func header(_ height: Int) -> BlockHeader {
        BlockHeader(
            hash: "h\(height)",
            height: height,
            time: Date(timeIntervalSince1970: 0),
            merkleRoot: "m",
            nonce: 0,
            txCount: 1,
            previousHash: "h\(height - 1)"
        )
    }

    @Test func theMissingHeadersBelowTheTipAreFetchedTopDownWhileTheirHashIsKnown() {
        var memory = ChainMemory(tip: BlockRef(height: 100, hash: "h100"), headers: [header(100)])
        #expect(memory.nextMissingHeader(within: 20) == 99)
        memory.record(header(99))
        #expect(memory.nextMissingHeader(within: 20) == 98)
        for height in stride(from: 98, through: 81, by: -1) { memory.record(header(height)) }
        #expect(memory.nextMissingHeader(within: 20) == nil, "heights 81...100 are there")
        #expect(memory.nextMissingHeader(within: 21) == 80)
    }

    @Test func aHeightWithNoKnownHashStopsTheFill() {
        // The tip known without its header (a provider with no block lookup gave it): nothing to check against.
        let memory = ChainMemory(tip: BlockRef(height: 100, hash: "h100"), headers: [])
        #expect(memory.nextMissingHeader(within: 20) == 100)
        let gap = ChainMemory(tip: BlockRef(height: 100, hash: "h100"), headers: [header(100), header(97)])
        #expect(gap.nextMissingHeader(within: 20) == 99)
        var filled = gap
        filled.record(header(99))
        #expect(filled.nextMissingHeader(within: 20) == 98)
        #expect(ChainMemory().nextMissingHeader(within: 20) == nil)
        #expect(gap.nextMissingHeader(within: 0) == nil)
    }
}

import Foundation
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// A provider's chain for the reducers' unit tests: headers by height with branch-tagged hashes, so a reorg is
/// one call. Values only; no I/O.
struct TestChain {
    var headers: [Int: BlockHeader] = [:]
    var tipHeight: Int
    private var branchCounter = 0

    /// A chain from `start` to `tip`.
    init(start: Int = 800_000, tip: Int) {
        tipHeight = start - 1
        headers[start - 1] = Self.header(start - 1, branch: "g", parent: nil)
        extend(to: tip)
    }

    static func header(_ height: Int, branch: String, parent: String?) -> BlockHeader {
        BlockHeader(
            hash: "\(branch)-\(height)",
            height: height,
            time: Date(timeIntervalSince1970: TimeInterval(1_700_000_000 + height * 600)),
            merkleRoot: "m\(height)",
            nonce: UInt32(height % 1000),
            txCount: 1,
            previousHash: parent
        )
    }

    var tip: BlockRef { headers[tipHeight]!.ref }
    func hash(_ height: Int) -> String { headers[height]!.hash }

    /// Mines blocks on the current branch up to `height`.
    mutating func extend(to height: Int, branch: String = "a") {
        while tipHeight < height {
            tipHeight += 1
            headers[tipHeight] = Self.header(tipHeight, branch: branch, parent: headers[tipHeight - 1]?.hash)
        }
    }

    /// Mines `count` blocks.
    mutating func mine(_ count: Int) { extend(to: tipHeight + count, branch: "a\(branchCounter)") }

    /// Replaces the top `depth` blocks with a new branch of the same length.
    mutating func reorg(depth: Int) {
        branchCounter += 1
        let top = tipHeight
        tipHeight -= depth
        for height in (tipHeight + 1)...top { headers[height] = nil }
        extend(to: top, branch: "r\(branchCounter)")
    }

    /// Runs a ``ChainSync`` against this chain.
    /// - Returns: the outcome and the heights fetched, in order.
    func sync(_ memory: ChainMemory, maxBackfill: Int, fetchesHeaders: Bool = true) throws -> (
        ChainSync.Outcome, [Int]
    ) {
        var sync = ChainSync(memory: memory, tip: tip, maxBackfill: maxBackfill, fetchesHeaders: fetchesHeaders)
        var fetched: [Int] = []
        while case .header(let height) = sync.next() {
            fetched.append(height)
            guard let header = headers[height] else { throw Missing(height: height) }
            try sync.receive(header)
        }
        return (sync.outcome, fetched)
    }

    struct Missing: Error { let height: Int }

    /// Syncs and reduces: the memory and events after one poll.
    func poll(_ memory: ChainMemory, maxBackfill: Int = 100, keepHeaders: Int = 100, announce: Bool = true) throws
        -> (ChainMemory, [NewEvent], ChainSync.Outcome)
    {
        let (outcome, _) = try sync(memory, maxBackfill: maxBackfill)
        let settings = ChainReducer.Settings(chain: "btc", watch: "tip", announce: announce, keepHeaders: keepHeaders)
        let (next, events) = ChainReducer.reduce(
            memory,
            outcome,
            settings: settings,
            now: Date(timeIntervalSince1970: 0)
        )
        return (next, events, outcome)
    }
}

extension NewEvent {
    /// The envelope's `data`.
    var data: JSONValue? { (try? JSONValue.parse(body))?["data"] }
}

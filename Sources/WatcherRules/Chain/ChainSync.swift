import WatcherCore

/// The fork walk and fetch plan for one new tip, as a small state machine with no I/O.
///
/// The driver asks ``next()`` what to fetch, fetches that header through the scheduler, and hands it to
/// ``receive(_:)``, until ``next()`` says `.done`; ``outcome`` then says what happened. The walk compares the
/// provider's hashes with the remembered ones from the top down, skipping heights it never knew, and stops at the
/// first match: that is the fork point. Every fetched header also gives the provider's hash of its parent, so a
/// walk over consecutive heights costs one request per two heights.
public struct ChainSync: Sendable {
    /// What the driver must do next.
    public enum Need: Sendable, Equatable {
        /// Fetch the provider's header at this height.
        case header(Int)
        /// The walk is over; read ``ChainSync/outcome``.
        case done
    }

    /// What the new tip means for the stored chain.
    public struct Outcome: Sendable, Equatable {
        /// The provider's tip.
        public var tip: BlockRef
        /// The tip already stored, or a provider behind it on the same chain: nothing to do.
        public var unchanged: Bool
        /// The highest height both chains share, when blocks were replaced; `nil` without a reorg.
        public var fork: Int?
        /// Replaced blocks (height and old hash), lowest first.
        public var orphaned: [BlockRef]
        /// Whether no remembered hash matched: the reorg is deeper than the memory and `fork` is a bound.
        public var beyondMemory: Bool
        /// New main-chain headers to store, lowest first (the tip's always; missed ones up to `maxBackfill`).
        public var headers: [BlockHeader]
        /// How many new heights were not fetched because of `maxBackfill`.
        public var skipped: Int
        /// Every provider hash learned on the way, by height (all on the new chain).
        public var learned: [Int: String]
    }

    let memory: ChainMemory
    let tip: BlockRef
    let maxBackfill: Int
    /// Whether headers can be fetched; without them only the tip is compared (providers with no block lookup).
    let fetchesHeaders: Bool
    /// Heights with a remembered hash that the walk may compare, highest first.
    private var candidates: [Int]
    private var answers: [Int: String]
    private var fetched: [Int: BlockHeader] = [:]
    private var mismatched: [Int] = []
    private var fork: Int??
    private var wanted: [Int]?

    /// Starts a walk of `tip` against `memory`.
    /// - Parameters:
    ///   - maxBackfill: the most missed heights (below the new tip) to fetch and announce.
    ///   - fetchesHeaders: `false` when no provider can serve headers: only the tip is compared with the memory.
    public init(memory: ChainMemory, tip: BlockRef, maxBackfill: Int, fetchesHeaders: Bool = true) {
        self.memory = memory
        self.tip = tip
        self.fetchesHeaders = fetchesHeaders
        self.maxBackfill = max(0, maxBackfill)
        self.answers = [tip.height: tip.hash]
        let top = min(memory.tip?.height ?? Int.min, tip.height)
        self.candidates = memory.hashes.keys.filter { $0 <= top }.sorted(by: >)
    }

    /// What to fetch next, or `.done`.
    public mutating func next() -> Need {
        guard let stored = memory.tip else {
            if fork == nil { fork = .some(nil) }
            return nextWanted(from: tip.height - 1)
        }
        if stored.hash == tip.hash { return .done }
        if !fetchesHeaders {
            if fork == nil {
                let changed = memory.hashes[tip.height].map { $0 != tip.hash } ?? false
                fork = .some(changed ? tip.height - 1 : nil)
                wanted = []
            }
            return .done
        }
        if fork == nil {
            // The new headers are needed anyway in the common case (no reorg); fetched from the top down, each
            // one's parent hash walks the chain down to the stored tip for free.
            for height in Self.wanted(tip: tip.height, base: stored.height, maxBackfill: maxBackfill).reversed()
            where fetched[height] == nil {
                return .header(height)
            }
            while let height = candidates.first {
                guard let theirs = answers[height] else { return .header(height) }
                candidates.removeFirst()
                if theirs == memory.hashes[height] {
                    fork = .some(mismatched.isEmpty ? nil : height)
                    break
                }
                mismatched.append(height)
            }
            if fork == nil { fork = .some(mismatched.isEmpty ? nil : (mismatched.min() ?? tip.height) - 1) }
        }
        if isLagging { return .done }
        return nextWanted(from: (fork ?? nil) ?? stored.height)
    }

    /// Hands over the header fetched for the last `.header` need.
    /// - Throws: ``Inconsistent`` when it is not the block the provider called its tip (providers disagreed
    ///   between two requests, e.g. across a failover): the round is abandoned and retried.
    public mutating func receive(_ header: BlockHeader) throws(Inconsistent) {
        if let known = answers[header.height], known != header.hash {
            throw Inconsistent(height: header.height, expected: known, got: header.hash)
        }
        fetched[header.height] = header
        answers[header.height] = header.hash
        if let parent = header.previousHash { answers[header.height - 1] = parent }
    }

    /// Two answers about the same height disagreed within one round.
    public struct Inconsistent: Error, Sendable, CustomStringConvertible {
        /// The height.
        public var height: Int
        /// The hash learned first.
        public var expected: String
        /// The hash of the header received.
        public var got: String

        public var description: String {
            "the provider's chain changed while it was read (height \(height): \(expected) then \(got)); "
                + "retrying next round"
        }
    }

    /// A provider behind the stored tip on the same chain (a lagging failover): nothing changes.
    private var isLagging: Bool {
        guard let stored = memory.tip, case .some(.none) = fork else { return false }
        return tip.height <= stored.height
    }

    /// The next header to fetch above `base`, or `.done` when all wanted headers are in.
    private mutating func nextWanted(from base: Int) -> Need {
        if wanted == nil { wanted = Self.wanted(tip: tip.height, base: base, maxBackfill: maxBackfill) }
        for height in wanted ?? [] where fetched[height] == nil { return .header(height) }
        return .done
    }

    /// The heights to fetch above `base`, lowest first: the tip, and up to `maxBackfill` missed heights below it.
    static func wanted(tip: Int, base: Int, maxBackfill: Int) -> [Int] {
        guard tip > base else { return [] }
        let backfill = min(tip - base - 1, maxBackfill)
        return Array((tip - backfill)...tip)
    }

    /// The result, once ``next()`` has said `.done`.
    public var outcome: Outcome {
        let stored = memory.tip
        if let stored, stored.hash == tip.hash || isLagging {
            return Outcome(
                tip: tip,
                unchanged: true,
                fork: nil,
                orphaned: [],
                beyondMemory: false,
                headers: [],
                skipped: 0,
                learned: answers
            )
        }
        let forkHeight = (fork ?? nil)
        let base = forkHeight ?? stored?.height ?? (tip.height - 1)
        let headers = (wanted ?? []).compactMap { fetched[$0] }.sorted { $0.height < $1.height }
        let orphaned =
            forkHeight.map { fork in
                memory.hashes.filter { $0.key > fork }.sorted { $0.key < $1.key }.map {
                    BlockRef(height: $0.key, hash: $0.value)
                }
            } ?? []
        let lowestKnown = memory.hashes.keys.min() ?? Int.max
        return Outcome(
            tip: tip,
            unchanged: false,
            fork: forkHeight,
            orphaned: orphaned,
            beyondMemory: forkHeight.map { $0 < lowestKnown } ?? false,
            headers: headers,
            skipped: max(0, tip.height - base - headers.count),
            learned: answers
        )
    }
}

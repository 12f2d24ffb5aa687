import WatcherCore

/// What the engine remembers of one chain: the tip it last processed, the recent headers (`storage.keepHeaders`,
/// for `watcher blocks` and `block.*` events), and a longer hash-only memory of the heights it has seen.
///
/// The hash memory is what the fork walk compares the provider's chain with. It may have gaps (blocks missed
/// beyond `maxBackfill` are never fetched); every header also tells the hash of its parent, so a gap of one costs
/// nothing.
public struct ChainMemory: Sendable, Hashable {
    /// The tip last processed, `nil` before the first poll.
    public var tip: BlockRef?
    /// Recent headers by height.
    public var headers: [Int: BlockHeader]
    /// Known main-chain hashes by height (headers, their parents, and what the provider confirmed).
    public var hashes: [Int: String]

    /// How many heights the hash memory keeps at least: a reorg deeper than this is reported as such.
    public static let minimumHashDepth = 1_000

    /// Creates a memory.
    public init(tip: BlockRef? = nil, headers: [BlockHeader] = [], hashes: [Int: String] = [:]) {
        self.tip = tip
        self.headers = Dictionary(headers.map { ($0.height, $0) }) { first, _ in first }
        var all = hashes
        for header in headers {
            all[header.height] = header.hash
            if let parent = header.previousHash, all[header.height - 1] == nil { all[header.height - 1] = parent }
        }
        if let tip { all[tip.height] = tip.hash }
        self.hashes = all
    }

    /// The hash remembered at `height`.
    public func hash(at height: Int) -> String? { hashes[height] }

    /// Forgets everything above `height` (a reorg replaced it).
    public mutating func forget(above height: Int) {
        headers = headers.filter { $0.key <= height }
        hashes = hashes.filter { $0.key <= height }
    }

    /// Records a main-chain header (and its parent's hash).
    public mutating func record(_ header: BlockHeader) {
        headers[header.height] = header
        hashes[header.height] = header.hash
        if let parent = header.previousHash { hashes[header.height - 1] = parent }
    }

    /// Records those of `headers` (lowest first) that follow the chain this memory holds, checked from the top down
    /// against the hash the one above names, up to the first that does not (another chain: a reorg under way).
    /// - Returns: the ones it held no header for, highest first.
    public mutating func recordDown(_ headers: [BlockHeader]) -> [BlockHeader] {
        var added: [BlockHeader] = []
        for header in headers.reversed() {
            guard hash(at: header.height) == header.hash else { break }
            if self.headers[header.height] == nil { added.append(header) }
            record(header)
        }
        return added
    }

    /// The highest height among the newest `count` below the tip that has no header but a known hash, so that a
    /// header fetched for it can be checked against the chain this memory follows; `nil` when there is none.
    ///
    /// A fresh data directory starts from the tip alone; fetching these fills `watcher blocks` and the Blocks tab
    /// down to `count` blocks, one parent at a time (each header recorded tells the hash of the next one down).
    public func nextMissingHeader(within count: Int) -> Int? {
        guard let tip, count > 0 else { return nil }
        for height in stride(from: tip.height, to: max(tip.height - count, -1), by: -1) where headers[height] == nil {
            return hashes[height] == nil ? nil : height
        }
        return nil
    }

    /// Keeps the newest `headerCount` headers and `hashDepth` heights of hashes.
    public mutating func trim(headerCount: Int, hashDepth: Int) {
        if headers.count > headerCount {
            let kept = Set(headers.keys.sorted(by: >).prefix(max(0, headerCount)))
            headers = headers.filter { kept.contains($0.key) }
        }
        if let top = hashes.keys.max() {
            hashes = hashes.filter { $0.key > top - hashDepth }
        }
    }
}

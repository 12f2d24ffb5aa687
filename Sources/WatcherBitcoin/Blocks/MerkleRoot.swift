/// Bitcoin's merkle tree over a block's txids.
public enum MerkleRoot: Sendable {
    /// The merkle root of `hashes` (txids in block order): pairs are hashed with double SHA-256 level
    /// by level, an odd last node being paired with itself.
    ///
    /// One hash is its own root; an empty list gives ``Hash256/zero``, as in Bitcoin Core. Because of
    /// the duplication rule, a list whose tail repeats can share a root with a shorter one
    /// (CVE-2012-2459): see ``isMutated(_:)``.
    public static func compute(_ hashes: [Hash256]) -> Hash256 {
        guard !hashes.isEmpty else { return .zero }
        var level = hashes.map(\.bytes)
        while level.count > 1 {
            level = nextLevel(level)
        }
        return Hash256(bytes: level[0]) ?? .zero
    }

    /// `true` if some level of the tree hashes two identical adjacent nodes, which is how a block can
    /// be altered (transactions repeated) without changing its merkle root; Core rejects such blocks.
    public static func isMutated(_ hashes: [Hash256]) -> Bool {
        var level = hashes.map(\.bytes)
        while level.count > 1 {
            var index = 0
            while index + 1 < level.count {
                if level[index] == level[index + 1] { return true }
                index += 2
            }
            level = nextLevel(level)
        }
        return false
    }

    private static func nextLevel(_ level: [[UInt8]]) -> [[UInt8]] {
        var next: [[UInt8]] = []
        next.reserveCapacity((level.count + 1) / 2)
        var index = 0
        while index < level.count {
            let left = level[index]
            let right = index + 1 < level.count ? level[index + 1] : left
            next.append(sha256d(left + right))
            index += 2
        }
        return next
    }
}

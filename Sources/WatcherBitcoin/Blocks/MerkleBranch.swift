/// A merkle branch (what Electrum's `blockchain.transaction.get_merkle` answers): the sibling hashes from a
/// transaction up to its block's merkle root.
public enum MerkleBranch: Sendable {
    /// The root that `txid` at `position` in its block hashes to with `branch` (siblings, leaf level first): at each
    /// level the node is hashed with its sibling on the side the position's bit says.
    public static func root(of txid: Hash256, branch: [Hash256], position: Int) -> Hash256 {
        var node = txid.bytes
        var index = position
        for sibling in branch {
            node = index & 1 == 0 ? sha256d(node + sibling.bytes) : sha256d(sibling.bytes + node)
            index >>= 1
        }
        return Hash256(bytes: node) ?? .zero
    }

    /// `true` when `txid` at `position` with `branch` hashes to `merkleRoot`, and `position` fits the branch's
    /// depth (a position past the tree would let one branch serve several leaves).
    public static func proves(_ txid: Hash256, branch: [Hash256], position: Int, merkleRoot: Hash256) -> Bool {
        guard position >= 0, branch.count < Int.bitWidth - 1, position < 1 << branch.count else { return false }
        return root(of: txid, branch: branch, position: position) == merkleRoot
    }
}

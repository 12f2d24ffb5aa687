import Testing
import WatcherBitcoin
import WatcherJSON

/// Electrum's merkle branches: a branch leads from a txid to its block's merkle root, and a forged one does not.
@Suite struct MerkleBranchTests {
    /// The branch of leaf `index` among `leaves`, as an Electrum server builds it (odd nodes paired with themselves).
    static func branch(_ leaves: [Hash256], _ index: Int) -> [Hash256] {
        var level = leaves.map(\.bytes)
        var position = index
        var branch: [Hash256] = []
        while level.count > 1 {
            let sibling = position ^ 1 < level.count ? level[position ^ 1] : level[position]
            branch.append(Hash256(bytes: sibling)!)
            var next: [[UInt8]] = []
            var i = 0
            while i < level.count {
                next.append(sha256d(level[i] + (i + 1 < level.count ? level[i + 1] : level[i])))
                i += 2
            }
            level = next
            position >>= 1
        }
        return branch
    }

    static func leaves(_ count: Int) -> [Hash256] {
        (0..<count).map { Hash256(hashing: [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)]) }
    }

    @Test(arguments: [1, 2, 3, 7, 8, 13])
    func everyLeafIsProvedAgainstTheRoot(count: Int) {
        let leaves = Self.leaves(count)
        let root = MerkleRoot.compute(leaves)
        for index in leaves.indices {
            let branch = Self.branch(leaves, index)
            #expect(MerkleBranch.proves(leaves[index], branch: branch, position: index, merkleRoot: root))
        }
    }

    @Test func aForgedBranchAWrongPositionOrAnotherTxidIsRejected() {
        let leaves = Self.leaves(13)
        let root = MerkleRoot.compute(leaves)
        let branch = Self.branch(leaves, 5)
        var forged = branch
        forged[1] = Hash256(hashing: [0xff])
        #expect(!MerkleBranch.proves(leaves[5], branch: forged, position: 5, merkleRoot: root))
        #expect(!MerkleBranch.proves(leaves[5], branch: branch, position: 4, merkleRoot: root))
        #expect(!MerkleBranch.proves(leaves[6], branch: branch, position: 5, merkleRoot: root))
        #expect(!MerkleBranch.proves(leaves[5], branch: branch, position: 5 + 16, merkleRoot: root))
        #expect(!MerkleBranch.proves(leaves[5], branch: branch, position: -1, merkleRoot: root))
    }

    /// The protocol docs' `get_merkle` answer (mainnet block 450538): its eleven levels take positions below 2048,
    /// so its `pos` 710 fits, and the root it leads to depends on every sibling.
    @Test func theRecordedAnswerHasABranchThatFitsItsPosition() throws {
        let answer = try Fixtures.json("electrum/transaction-get-merkle-main-450538.json")
        let branch = try #require(answer["merkle"]?.arrayValue?.compactMap { $0.stringValue.flatMap(Hash256.init) })
        let position = try #require(answer["pos"]?.integer.map(Int.init))
        #expect(branch.count == 11)
        let leaf = Hash256(hashing: [1])
        let root = MerkleBranch.root(of: leaf, branch: branch, position: position)
        #expect(MerkleBranch.proves(leaf, branch: branch, position: position, merkleRoot: root))
        #expect(!MerkleBranch.proves(leaf, branch: branch, position: position + 2048, merkleRoot: root))
        for level in branch.indices {
            var forged = branch
            forged[level] = Hash256(hashing: [UInt8(level)])
            #expect(MerkleBranch.root(of: leaf, branch: forged, position: position) != root)
        }
    }
}

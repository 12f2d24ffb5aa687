import WatcherBitcoin
import WatcherCore
import WatcherJSON

extension ElectrumProvider {
    /// Transaction `txid` in block `hash` at `height`, proved the SPV way: `blockchain.transaction.get_merkle`
    /// gives the branch, `blockchain.block.header` the header; the header must hash to `hash` and the branch must
    /// lead from the txid to the header's merkle root. The transaction itself (for its effect) is read raw and
    /// hashed to `txid` as ``transaction(_:)`` does.
    public func confirmation(of txid: String, inBlock hash: String, height: Int) async throws -> ChainTransaction {
        let txid = txid.lowercased()
        guard let leaf = Hash256(displayHex: txid), height >= 0 else {
            throw ProviderError.badRequest(provider: id, detail: "\(txid) at \(height) is not a txid at a height")
        }
        let proof: JSONValue
        do {
            proof = try await link.call(
                "blockchain.transaction.get_merkle",
                [.string(txid), .number(String(height))]
            )
        } catch ProviderError.badRequest {
            // Servers answer a transaction that is not in that block with a handler error.
            throw ProviderError.notFound(provider: id, what: "transaction \(txid) in block \(height)")
        }
        let branch = try self.branch(proof, txid: txid, height: height)
        let header = try await self.header(at: height, fresh: true)
        guard header.hash == hash.lowercased() else {
            throw ProviderError.notFound(
                provider: id,
                what: "block \(hash) (the server's block \(height) is \(header.hash))"
            )
        }
        guard
            MerkleBranch.proves(
                leaf,
                branch: branch.hashes,
                position: branch.position,
                merkleRoot: header.header.merkleRoot
            )
        else {
            throw invalid(
                "get_merkle of \(txid) at \(height) does not lead to the merkle root of block \(header.hash)"
            )
        }
        var confirmed = try await transaction(txid)
        confirmed.blockHeight = height
        confirmed.blockHash = header.hash
        return confirmed
    }

    /// The branch and position of a `get_merkle` answer, each hash checked.
    private func branch(
        _ proof: JSONValue,
        txid: String,
        height: Int
    ) throws -> (hashes: [Hash256], position: Int) {
        let what = "get_merkle of \(txid) at \(height)"
        guard let position = proof["pos"].flatMap(Self.int), let items = proof["merkle"]?.arrayValue else {
            throw invalid("\(what) answered \(Self.clip(proof)), not {merkle[], pos}")
        }
        if let answered = proof["block_height"].flatMap(Self.int), answered != height {
            throw invalid("\(what) answered block_height \(answered)")
        }
        var hashes: [Hash256] = []
        for item in items {
            guard let text = item.stringValue, let hash = Hash256(displayHex: text) else {
                throw invalid("\(what) has \(Self.clip(item)) in its branch, not a hash")
            }
            hashes.append(hash)
        }
        return (hashes, position)
    }
}

import WatcherBitcoin
import WatcherCore
import WatcherHTTP
import WatcherJSON

extension BitcoindProvider {
    /// Transaction `txid` in block `hash`: `getrawtransaction <txid> 2 <hash>`, which a node without `-txindex`
    /// answers too, batched with `getblockheader <hash>` for the height. The node answers only if the block is on
    /// its chain and holds the transaction; the decoded transaction must hash to `txid`.
    public func confirmation(of txid: String, inBlock hash: String, height: Int) async throws -> ChainTransaction {
        guard Hex.isHash(txid), Hex.isHash(hash) else {
            throw ProviderError.badRequest(provider: id, detail: "\(txid) in \(hash) is not a txid in a block hash")
        }
        let txid = txid.lowercased()
        let hash = hash.lowercased()
        let replies = try await rpc.batch(
            [
                ("getrawtransaction", [.string(txid), .number("2"), .string(hash)]),
                ("getblockheader", [.string(hash)]),
            ],
            what: "transaction \(txid) in block \(hash)"
        )
        let node = try replies[0].get(rpc, what: "transaction \(txid) in block \(hash)")
        let header = try decoder.header(try replies[1].get(rpc, what: "block \(hash)"))
        let decoded = try decoder.transaction(node, height: header.height, blockHash: hash)
        guard decoded.txid == txid else {
            throw node.failure("asked for transaction \(txid), got \(decoded.txid)")
        }
        var confirmed = try await valuingInputs(of: decoded, from: node)
        confirmed.blockHeight = header.height
        confirmed.blockHash = hash
        return confirmed
    }
}

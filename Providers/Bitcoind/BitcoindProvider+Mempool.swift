import WatcherCore
import WatcherHTTP
import WatcherJSON

/// The mempool, polled: `getrawmempool`, then the transactions not seen before in batches of `getrawtransaction`.
/// The engine has no mempool capability yet; this is the provider side it will call. Its transactions' inputs stay
/// unvalued (Core gives a mempool transaction no prevouts; ``transaction(_:)`` reads the parents, at one more batch
/// per transaction, which a poll of the whole mempool cannot afford).
extension BitcoindProvider {
    /// Transactions per `getrawtransaction` batch (each item holds a place in the node's work queue).
    public static let mempoolBatch = 50

    /// The mempool's txids, and the transactions among them not in `known`, unconfirmed. A transaction that left
    /// the mempool between the two calls (`-5`) is left out.
    public func mempool(known: Set<String>) async throws -> (txids: [String], new: [ChainTransaction]) {
        let list = try await rpc.call("getrawmempool", what: "mempool")
        let txids = try list.array().map { try decoder.hash($0) }
        let fresh = txids.filter { !known.contains($0) }
        var result: [ChainTransaction] = []
        for start in stride(from: 0, to: fresh.count, by: Self.mempoolBatch) {
            let chunk = Array(fresh[start..<min(fresh.count, start + Self.mempoolBatch)])
            let replies = try await rpc.batch(
                chunk.map { ("getrawtransaction", [JSONValue.string($0), .number("2")]) },
                what: "mempool transactions"
            )
            for (txid, reply) in zip(chunk, replies) {
                switch reply {
                case .failure(let failure) where failure.code == -5: continue
                case .failure(let failure): throw rpc.error(failure, what: "transaction \(txid)")
                case .success(let node):
                    let transaction = try decoder.transaction(node, height: nil, blockHash: nil)
                    guard transaction.txid == txid else {
                        throw node.failure("asked for transaction \(txid), got \(transaction.txid)")
                    }
                    result.append(transaction)
                }
            }
        }
        return (txids, result)
    }
}

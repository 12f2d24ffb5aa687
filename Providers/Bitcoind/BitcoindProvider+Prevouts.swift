import WatcherCore
import WatcherHTTP
import WatcherJSON

/// Inputs Core leaves unvalued. `getrawtransaction <txid> 2` gives each input's `prevout` only for a transaction in
/// a block with undo data: a mempool transaction comes back without them. Its parents are then read in one batch of
/// `getrawtransaction <parent> 1` (a parent in the mempool, in a recent block read, or found by `-txindex`), and each
/// input takes its spent output's address and value. Inputs whose parent the node cannot find stay unvalued.
extension BitcoindProvider {
    /// `transaction` with the inputs `node` (its verbose object) left unvalued filled from their parents.
    func valuingInputs(of transaction: ChainTransaction, from node: ProviderHTTP.JSONNode) async throws
        -> ChainTransaction
    {
        guard transaction.feeSat == nil, let vin = try node["vin"]?.array() else { return transaction }
        var spent: [(index: Int, txid: String, vout: Int)] = []
        for (index, input) in vin.enumerated() where input["prevout"] == nil {
            guard let parent = input["txid"], let vout = input["vout"] else { continue }
            spent.append((index, try decoder.hash(parent), try vout.int()))
        }
        let parents = Array(Set(spent.map(\.txid))).sorted()
        guard !parents.isEmpty else { return transaction }
        let replies = try await rpc.batch(
            parents.map { parent in
                var params: [JSONValue] = [.string(parent), .number("1")]
                if let hint = cache.blockHash(of: parent) { params.append(.string(hint)) }
                return ("getrawtransaction", params)
            },
            what: "the inputs of transaction \(transaction.txid)"
        )
        var outputs: [String: [TxEndpoint]] = [:]
        for (parent, reply) in zip(parents, replies) {
            // A parent the node cannot give (or gives wrong) leaves its inputs unvalued; the transaction itself
            // was read and checked.
            guard case .success(let parentNode) = reply,
                let decoded = try? decoder.transaction(parentNode, height: nil, blockHash: nil), decoded.txid == parent
            else { continue }
            outputs[parent] = decoded.outputs
        }
        var valued = transaction
        var complete = true
        for input in spent {
            guard input.index < valued.inputs.count, let list = outputs[input.txid], input.vout < list.count else {
                complete = false
                continue
            }
            valued.inputs[input.index] = list[input.vout]
        }
        if complete, spent.count == vin.count {
            valued.feeSat = valued.inputs.reduce(0) { $0 + $1.valueSat } - valued.outputs.reduce(0) { $0 + $1.valueSat }
        }
        return valued
    }
}

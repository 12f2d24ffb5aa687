import WatcherBitcoin
import WatcherCore
import WatcherHTTP
import WatcherJSON

/// The ``ChainCapabilities/mempool`` capability: `getrawmempool`, and the new transactions in batches of
/// `getrawtransaction`, their inputs valued in two more batches at most. Core gives a mempool transaction no
/// prevouts, and without `-txindex` it cannot look up a confirmed parent; so each spent output is read from the
/// chain's UTXO set (`gettxout <txid> <n> false`, which still returns a coin spent only in the mempool), and the
/// outputs of parents that are themselves unconfirmed from the mempool (`getrawtransaction <parent> 1`, unless the
/// parent is in the same batch). The requests grow with the new mempool transactions, never with the followed
/// addresses.
extension BitcoindProvider {
    /// Transactions per `getrawtransaction` batch (each item holds a place in the node's work queue).
    public static let mempoolBatch = 50

    public var mempoolBatch: Int { Self.mempoolBatch }

    /// The transactions, the confirmed spent outputs, the unconfirmed parents.
    public var requestsPerMempoolRead: Int { 3 }

    public func mempoolTxids() async throws -> [String] {
        try await rpc.call("getrawmempool", what: "mempool").array().map { try decoder.hash($0) }
    }

    public func mempoolTransactions(_ txids: [String]) async throws -> [MempoolTransaction] {
        let replies = try await rpc.batch(
            txids.map { ("getrawtransaction", [JSONValue.string($0), .number("1")]) },
            what: "mempool transactions"
        )
        var read: [(tx: ChainTransaction, node: ProviderHTTP.JSONNode)] = []
        for (txid, reply) in zip(txids, replies) {
            switch reply {
            // Left the mempool since the list (mined or replaced): the next list tells.
            case .failure(let failure) where failure.code == -5: continue
            case .failure(let failure): throw rpc.error(failure, what: "transaction \(txid)")
            case .success(let node):
                let transaction = try decoder.transaction(node, height: nil, blockHash: nil)
                guard transaction.txid == txid else {
                    throw node.failure("asked for transaction \(txid), got \(transaction.txid)")
                }
                // Mined since the list (a node with -txindex still finds it): the block scan has it.
                guard transaction.blockHash == nil else { continue }
                read.append((transaction, node))
            }
        }
        var spends: [MempoolSpend] = []
        var facts: [TxFacts] = []
        for (position, item) in read.enumerated() {
            let vin = try item.node["vin"]?.array() ?? []
            var sequences: [UInt32]? = []
            var parents: [String]? = []
            var outpoints: [TxOutpoint]? = []
            for (index, input) in vin.enumerated() {
                if let sequence = input["sequence"] {
                    sequences?.append(UInt32(truncatingIfNeeded: try sequence.int64()))
                } else {
                    sequences = nil
                }
                guard let parent = input["txid"], let vout = input["vout"] else {
                    parents = nil
                    outpoints = nil
                    continue
                }
                let hash = try decoder.hash(parent)
                parents?.append(hash)
                outpoints?.append(TxOutpoint(txid: hash, vout: try vout.int()))
                if input["prevout"] == nil {
                    spends.append(MempoolSpend(tx: position, input: index, parent: hash, vout: try vout.int()))
                }
            }
            facts.append(
                TxFacts(
                    feeSat: nil,
                    vsize: try item.node["vsize"]?.int(),
                    sequences: sequences,
                    parents: parents,
                    outpoints: outpoints
                )
            )
        }
        let spent = try await spentOutputs(spends, read: read.map(\.tx))
        var result: [MempoolTransaction] = []
        for (position, item) in read.enumerated() {
            var transaction = item.tx
            for (offset, spend) in spends.enumerated() where spend.tx == position {
                if let output = spent[offset], spend.input < transaction.inputs.count {
                    transaction.inputs[spend.input] = output.endpoint
                }
            }
            let unvalued = spends.indices.contains { spends[$0].tx == position && spent[$0] == nil }
            if transaction.feeSat == nil, !unvalued {
                transaction.feeSat =
                    transaction.inputs.reduce(0) { $0 + $1.valueSat }
                    - transaction.outputs.reduce(0) { $0 + $1.valueSat }
            }
            var itemFacts = facts[position]
            itemFacts.feeSat = transaction.feeSat
            // Every input valued: those whose coin is not in the chain's UTXO set spend unconfirmed parents.
            if !unvalued, itemFacts.parents != nil {
                itemFacts.unconfirmedInputs =
                    spends.indices.filter {
                        spends[$0].tx == position && spent[$0]?.confirmed == false
                    }.count
            }
            result.append(MempoolTransaction(transaction: transaction, facts: itemFacts))
        }
        return result
    }

    /// The output each of `spends` spends and whether it is confirmed, `nil` where the node has it neither in the
    /// UTXO set nor in the mempool.
    private func spentOutputs(_ spends: [MempoolSpend], read: [ChainTransaction]) async throws
        -> [(endpoint: TxEndpoint, confirmed: Bool)?]
    {
        let inBatch = Dictionary(read.map { ($0.txid, $0.outputs) }) { first, _ in first }
        var found: [(endpoint: TxEndpoint, confirmed: Bool)?] = spends.map { spend in
            inBatch[spend.parent].flatMap { spend.vout < $0.count ? ($0[spend.vout], false) : nil }
        }
        let confirmed = spends.indices.filter { found[$0] == nil }
        let coins = try await rpc.batch(
            confirmed.map { ("gettxout", [.string(spends[$0].parent), .number("\(spends[$0].vout)"), .bool(false)]) },
            what: "the outputs mempool transactions spend"
        )
        for (offset, reply) in zip(confirmed, coins) {
            guard case .success(let coin) = reply, coin.value != .null else { continue }
            let hex = try coin.required("scriptPubKey").required("hex")
            guard let script = Hex.decode(try hex.string()) else { throw hex.failure("expected hex at \(hex.place)") }
            let endpoint = TxEndpoint(
                address: BitcoinAddress(scriptPubKey: script, network: decoder.network)?.string,
                valueSat: try BitcoindDecoder.satoshis(coin.required("value"))
            )
            found[offset] = (endpoint, true)
        }
        let parents = Array(Set(spends.indices.filter { found[$0] == nil }.map { spends[$0].parent })).sorted()
        let replies = try await rpc.batch(
            parents.map { ("getrawtransaction", [JSONValue.string($0), .number("1")]) },
            what: "the mempool parents of mempool transactions"
        )
        var outputs: [String: (outputs: [TxEndpoint], confirmed: Bool)] = [:]
        for (parent, reply) in zip(parents, replies) {
            guard case .success(let node) = reply,
                let decoded = try? decoder.transaction(node, height: nil, blockHash: nil), decoded.txid == parent
            else { continue }
            outputs[parent] = (decoded.outputs, decoded.blockHash != nil)
        }
        for offset in spends.indices where found[offset] == nil {
            guard let parent = outputs[spends[offset].parent], spends[offset].vout < parent.outputs.count else {
                continue
            }
            found[offset] = (parent.outputs[spends[offset].vout], parent.confirmed)
        }
        return found
    }
}

/// One input of a mempool transaction whose spent output is to be found.
struct MempoolSpend: Sendable {
    var tx: Int
    var input: Int
    var parent: String
    var vout: Int
}

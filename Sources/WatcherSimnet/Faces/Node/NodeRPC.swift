import Foundation
import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Bitcoin Core's JSON-RPC methods over one chain snapshot. Pure: it reads the snapshot and never mutates it.
///
/// Without `-txindex` (``SimnetConfiguration/txindex`` `false`) `getrawtransaction` finds confirmed transactions
/// only when given their block hash, as Core does; with it (the simnet's default) it finds any known transaction.
struct NodeRPC: Sendable {
    let chain: ChainModel
    let txindex: Bool
    /// Report initial block download in `getblockchaininfo`.
    var syncing = false
    /// The ZMQ endpoint published on (`hashblock` and `sequence`), `nil` when off.
    var zmqEndpoint: String? = nil
    /// The chain `getblockchaininfo` claims (``NodeSettings/chain``).
    var chainName = "main"
    /// The release the node answers as.
    var version = CoreVersion.newest
    /// The next-block fee rate in sat/vB `estimatesmartfee` answers (the world's).
    var feeRate = SimnetWorld.defaultFeeRate
    /// Answer `estimatesmartfee` as a node without enough data (``NodeSettings/insufficientFeeData``).
    var insufficientFeeData = false

    private var blocks: CoreChainJSON { CoreChainJSON(chain: chain) }

    func call(_ method: String, _ params: JSONValue?) throws(RPCError) -> JSONValue {
        let p = try RPCParams(method: method, params: params)
        switch method {
        case "getblockchaininfo": return blocks.blockchainInfo(syncing: syncing, name: chainName)
        case "getnetworkinfo": return blocks.networkInfo(version: version)
        case "getindexinfo": return blocks.indexInfo(txindex: txindex, version: version, only: try p.string(0))
        case "getmempoolinfo": return blocks.mempoolInfo()
        case "getblockcount": return .integer(chain.tip.height)
        case "getbestblockhash": return .string(chain.tip.hash)
        case "getblockhash":
            let height = try p.int(0) ?? 0
            guard let block = chain.block(height: height) else { throw .heightOutOfRange }
            return .string(block.hash)
        case "getblockheader":
            let record = try block(p.hash(0, name: "hash"))
            guard try p.bool(1) ?? true else { return .string(Hex.encode(record.block.header.serialized())) }
            return blocks.header(record)
        case "getblock":
            let record = try block(p.hash(0, name: "blockhash"))
            let verbosity = try p.verbosity(1, default: 1)
            guard verbosity > 0 else { return .string(Hex.encode(CoreChainJSON.rawBlock(record))) }
            return blocks.block(record, verbosity: min(verbosity, 3))
        case "getrawtransaction": return try rawTransaction(p)
        case "getrawmempool": return try rawMempool(p)
        case "getmempoolentry":
            let txid = try p.hash(0, name: "parameter 1")
            guard chain.mempool.contains(txid), let tx = chain.transaction(txid) else { throw .notInMempool }
            return blocks.mempoolEntry(tx)
        case "gettxout": return try txOut(p)
        case "scantxoutset": return try NodeScan(chain: chain).run(p)
        case "gettxspendingprevout": return try spendingPrevout(p)
        case "getzmqnotifications": return zmqNotifications()
        case "estimatesmartfee": return try estimateSmartFee(p)
        default: throw .methodNotFound
        }
    }

    /// Core's shape: one row per `-zmqpub…` option, with the socket's high-water mark.
    private func zmqNotifications() -> JSONValue {
        guard let zmqEndpoint else { return .array([]) }
        return .array(
            ["pubhashblock", "pubsequence"].map {
                .object([
                    .init("type", .string($0)), .init("address", .string(zmqEndpoint)), .init("hwm", .integer(1_000)),
                ])
            }
        )
    }

    private func block(_ hash: String) throws(RPCError) -> ChainModel.BlockRecord {
        guard let record = chain.record(hash: hash) else { throw .blockNotFound }
        return record
    }

    private func rawTransaction(_ p: RPCParams) throws(RPCError) -> JSONValue {
        let txid = try p.hash(0, name: "parameter 1")
        let verbosity = try p.verbosity(1, default: 0)
        var members: [JSONValue.Member] = []
        let tx: SimTransaction
        var blockHash: String?
        var onMainChain = false
        if p.value(2) != nil {
            let record = try block(p.hash(2, name: "parameter 3"))
            guard let found = record.transactions.first(where: { $0.txid == txid }) else {
                throw RPCError(
                    code: -5,
                    message:
                        "No such transaction found in the provided block. Use gettransaction for wallet transactions."
                )
            }
            tx = found
            blockHash = record.block.hash
            onMainChain = record.onMainChain
            members.append(.init("in_active_chain", .bool(onMainChain)))
        } else {
            guard let found = chain.transaction(txid) else { throw txindex ? .noSuchTransaction : .noTxindex }
            let location = chain.location(of: txid)
            if location != nil, !txindex { throw .noTxindex }
            tx = found
            blockHash = location.flatMap { chain.block(height: $0.height)?.hash }
            onMainChain = location != nil
        }
        guard verbosity > 0 else { return .string(tx.raw.hex()) }
        let detail: CoreTxJSON.Detail = verbosity >= 2 && onMainChain ? .feeAndPrevout : .plain
        members += CoreTxJSON(chain: chain).members(tx, detail: detail)
        if let blockHash {
            members.append(.init("blockhash", .string(blockHash)))
            if onMainChain, let height = chain.location(of: tx.txid)?.height, let block = chain.block(height: height) {
                members.append(.init("confirmations", .integer(chain.confirmations(atHeight: height))))
                members.append(.init("time", .integer(block.time)))
                members.append(.init("blocktime", .integer(block.time)))
            } else {
                members.append(.init("confirmations", .integer(0)))
            }
        }
        return .object(members)
    }

    private func rawMempool(_ p: RPCParams) throws(RPCError) -> JSONValue {
        let verbose = try p.bool(0) ?? false
        let sequence = try p.bool(1) ?? false
        if verbose && sequence {
            throw .invalidParameter("Verbose results cannot contain mempool sequence values.")
        }
        if verbose {
            return .object(
                chain.mempool.compactMap { chain.transaction($0) }.map { .init($0.txid, blocks.mempoolEntry($0)) }
            )
        }
        let txids = JSONValue.array(chain.mempool.map { .string($0) })
        guard sequence else { return txids }
        return .object([.init("txids", txids), .init("mempool_sequence", .integer(chain.mempoolSequence))])
    }

    private func txOut(_ p: RPCParams) throws(RPCError) -> JSONValue {
        let txid = try p.hash(0, name: "txid")
        let vout = try p.int(1) ?? 0
        let includeMempool = try p.bool(2) ?? true
        guard vout >= 0, let tx = chain.transaction(txid), tx.outputs.indices.contains(vout) else { return .null }
        let outpoint = SimOutpoint(txid: txid, vout: vout)
        let location = chain.location(of: txid)
        if includeMempool {
            if chain.spender(of: outpoint) != nil { return .null }
            if location == nil && !chain.mempool.contains(txid) { return .null }
        } else if !chain.isConfirmedUnspent(outpoint) {
            return .null
        }
        let output = tx.raw.outputs[vout]
        return .object([
            .init("bestblock", .string(chain.tip.hash)),
            .init("confirmations", .integer(location.map { chain.confirmations(atHeight: $0.height) } ?? 0)),
            .init("value", .number(BTCAmount.text(output.value))),
            .init("scriptPubKey", CoreTxJSON(chain: chain).scriptPubKey(output.scriptPubKey)),
            .init("coinbase", .bool(tx.isCoinbase)),
        ])
    }

    private func spendingPrevout(_ p: RPCParams) throws(RPCError) -> JSONValue {
        guard let outputs = p.value(0) else { throw .type(.null, expected: "array") }
        guard case .array(let items) = outputs else { throw .type(outputs, expected: "array") }
        guard !items.isEmpty else { throw .invalidParameter("Invalid parameter, outputs are missing") }
        // Core 31: with the spender index (`-txospenderindex`), `mempool_only` defaults to false and confirmed
        // spends are found too, with the block they are in; before 31 there are no options and only the mempool.
        let spenderIndex = txindex && version >= CoreVersion.txospenderIndex
        var mempoolOnly = !spenderIndex
        if let options = p.value(1) {
            guard version >= CoreVersion.txospenderIndex else { throw RPCError(code: -1, message: "too many params") }
            guard case .object = options else { throw .type(options, expected: "object") }
            if case .bool(let only)? = options["mempool_only"] { mempoolOnly = only }
            if !mempoolOnly, !spenderIndex {
                throw RPCError(
                    code: -8,
                    message: "Invalid parameter, mempool_only must be true when txospenderindex is not available"
                )
            }
        }
        var result: [JSONValue] = []
        for item in items {
            guard case .object = item else { throw .type(item, expected: "object") }
            guard let txidValue = item["txid"] else { throw RPCError(code: -3, message: "Missing txid") }
            guard case .string(let txidText) = txidValue else { throw .type(txidValue, expected: "string") }
            guard let voutValue = item["vout"] else { throw RPCError(code: -3, message: "Missing vout") }
            guard case .number(let voutText) = voutValue, let vout = Int(voutText) else {
                throw .type(voutValue, expected: "number")
            }
            guard Hex.isHash(txidText) else {
                throw .invalidParameter("txid must be hexadecimal string (not '\(txidText)')")
            }
            guard vout >= 0 else { throw .invalidParameter("Invalid parameter, vout cannot be negative") }
            let txid = txidText.lowercased()
            var entry = JSONObjectBuilder()
            entry.add("txid", .string(txid))
            entry.add("vout", .integer(vout))
            if let spender = chain.spender(of: SimOutpoint(txid: txid, vout: vout)) {
                if chain.mempool.contains(spender.txid) {
                    entry.add("spendingtxid", .string(spender.txid))
                } else if !mempoolOnly, let height = chain.location(of: spender.txid)?.height,
                    let block = chain.block(height: height)
                {
                    entry.add("spendingtxid", .string(spender.txid))
                    entry.add("blockhash", .string(block.hash))
                }
            }
            result.append(entry.value)
        }
        return .array(result)
    }
}

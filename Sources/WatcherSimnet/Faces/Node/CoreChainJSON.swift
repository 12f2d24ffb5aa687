import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Bitcoin Core's chain-level JSON (Core 29 to 31 field order): `getblockchaininfo`, `getnetworkinfo`,
/// `getblockheader`, `getblock`, `getmempoolentry`, `getmempoolinfo`, `getindexinfo`.
struct CoreChainJSON: Sendable {
    let chain: ChainModel

    /// The target of regtest's bits as Core 29 prints it.
    static let targetHex = Hex.encode(ChainModel.target)
    /// Bytes the simnet claims on disk, growing with the chain.
    private var sizeOnDisk: Int { 681_584_532 + chain.blocks.reduce(0) { $0 + $1.size } }

    /// `getblockchaininfo`; `syncing` reports initial block download (headers ahead of blocks), `name` is the chain
    /// it claims (`main` by default; ``NodeSettings/chain``).
    func blockchainInfo(syncing: Bool = false, name: String = "main") -> JSONValue {
        let tip = chain.tip
        return .object([
            .init("chain", .string(name)),
            .init("blocks", .integer(tip.height)),
            .init("headers", .integer(tip.height + (syncing ? 144 : 0))),
            .init("bestblockhash", .string(tip.hash)),
            .init("bits", .string(tip.bits)),
            .init("target", .string(Self.targetHex)),
            .init("difficulty", .number(tip.difficulty)),
            .init("time", .integer(tip.time)),
            .init("mediantime", .integer(chain.medianTime(of: tip))),
            .init("verificationprogress", .number(syncing ? "0.9987" : "1")),
            .init("initialblockdownload", .bool(syncing)),
            .init("chainwork", .string(chain.chainwork(atHeight: tip.height))),
            .init("size_on_disk", .integer(sizeOnDisk)),
            .init("pruned", .bool(false)),
            .init("warnings", .array([])),
        ])
    }

    /// `getnetworkinfo` of a node of release `version`.
    func networkInfo(version: CoreVersion) -> JSONValue {
        .object([
            .init("version", .integer(version.number)),
            .init("subversion", .string(version.subversion)),
            .init("protocolversion", .integer(70016)),
            .init("localservices", .string("0000000000000c09")),
            .init(
                "localservicesnames",
                .array(["NETWORK", "WITNESS", "NETWORK_LIMITED", "P2P_V2"].map { .string($0) })
            ),
            .init("localrelay", .bool(true)),
            .init("timeoffset", .integer(0)),
            .init("networkactive", .bool(true)),
            .init("connections", .integer(0)),
            .init("connections_in", .integer(0)),
            .init("connections_out", .integer(0)),
            .init("networks", .array([])),
            .init("relayfee", .number("0.00001000")),
            .init("incrementalfee", .number("0.00001000")),
            .init("localaddresses", .array([])),
            .init("warnings", .array([])),
        ])
    }

    /// `getindexinfo [name]`: each index the node keeps, synced to the tip: `txindex` with `-txindex`, and from
    /// 31.0 `txospenderindex` beside it (the simnet keeps the two together, as ElectrumX 2 needs both).
    func indexInfo(txindex: Bool, version: CoreVersion, only name: String?) -> JSONValue {
        var names: [String] = []
        if txindex {
            names.append("txindex")
            if version >= CoreVersion.txospenderIndex { names.append("txospenderindex") }
        }
        let state = JSONValue.object([
            .init("synced", .bool(true)), .init("best_block_height", .integer(chain.tip.height)),
        ])
        return .object(names.filter { name == nil || $0 == name }.map { .init($0, state) })
    }

    /// `getmempoolinfo`: the mempool's size and Core's default limits and fee rates.
    func mempoolInfo() -> JSONValue {
        let txs = chain.mempool.compactMap { chain.transaction($0) }
        let bytes = txs.reduce(0) { $0 + $1.raw.vsize }
        let fees = txs.reduce(Int64(0)) { $0 + $1.fee }
        return .object([
            .init("loaded", .bool(true)),
            .init("size", .integer(txs.count)),
            .init("bytes", .integer(bytes)),
            .init("usage", .integer(bytes * 4)),
            .init("total_fee", .number(BTCAmount.text(fees))),
            .init("maxmempool", .integer(300_000_000)),
            .init("mempoolminfee", .number("0.00001000")),
            .init("minrelaytxfee", .number("0.00001000")),
            .init("incrementalrelayfee", .number("0.00001000")),
            .init("unbroadcastcount", .integer(0)),
            .init("fullrbf", .bool(true)),
        ])
    }

    /// `getblockheader <hash>` (verbose): the header fields plus confirmations, height, median time, chain work,
    /// `nTx` and the neighbours' hashes (`nextblockhash` only on the main chain).
    func header(_ record: ChainModel.BlockRecord) -> JSONValue {
        .object(headerMembers(record))
    }

    private func headerMembers(_ record: ChainModel.BlockRecord) -> [JSONValue.Member] {
        let block = record.block
        var object = JSONObjectBuilder()
        object.add("hash", .string(block.hash))
        object.add("confirmations", .integer(chain.coreConfirmations(block, onMainChain: record.onMainChain)))
        object.add("height", .integer(block.height))
        object.add("version", .integer(block.version))
        object.add("versionHex", .string(Self.versionHex(block.version)))
        object.add("merkleroot", .string(block.merkleRoot))
        object.add("time", .integer(block.time))
        object.add("mediantime", .integer(chain.medianTime(of: block)))
        object.add("nonce", .integer(block.nonce))
        object.add("bits", .string(block.bits))
        object.add("target", .string(Self.targetHex))
        object.add("difficulty", .number(block.difficulty))
        object.add("chainwork", .string(chain.chainwork(atHeight: block.height)))
        object.add("nTx", .integer(block.txCount))
        if block.height > 0 { object.add("previousblockhash", .string(block.previousBlockHash)) }
        if record.onMainChain, let next = chain.block(height: block.height + 1) {
            object.add("nextblockhash", .string(next.hash))
        }
        return object.members
    }

    /// `getblock <hash> <verbosity>` for verbosity 1 (txids), 2 (transactions with fees) or 3 (and prevouts).
    func block(_ record: ChainModel.BlockRecord, verbosity: Int) -> JSONValue {
        var members = headerMembers(record)
        let block = record.block
        members.append(.init("strippedsize", .integer(block.strippedSize)))
        members.append(.init("size", .integer(block.size)))
        members.append(.init("weight", .integer(block.weight)))
        let txs: [JSONValue]
        if verbosity <= 1 {
            txs = block.txids.map { .string($0) }
        } else {
            let json = CoreTxJSON(chain: chain)
            // Undo data (fees, prevouts) exists only for blocks on the active chain.
            let detail: CoreTxJSON.Detail =
                !record.onMainChain ? .plain : verbosity >= 3 ? .feeAndPrevout : .fee
            txs = record.transactions.map { .object(json.members($0, detail: detail)) }
        }
        return .object(members + [.init("tx", .array(txs))])
    }

    /// The serialized block.
    static func rawBlock(_ record: ChainModel.BlockRecord) -> [UInt8] {
        RawBlock(header: record.block.header, transactions: record.transactions.map(\.raw)).serialized()
    }

    /// `getmempoolentry <txid>` (and each value of `getrawmempool true`), Core 29's shape.
    func mempoolEntry(_ tx: SimTransaction) -> JSONValue {
        let raw = tx.raw
        let inMempool = Set(chain.mempool)
        let depends = tx.inputs.map(\.prevout.txid).filter { inMempool.contains($0) }
        var spentBy: [String] = []
        for vout in tx.outputs.indices {
            if let spender = chain.spender(of: SimOutpoint(txid: tx.txid, vout: vout)),
                inMempool.contains(spender.txid),
                !spentBy.contains(spender.txid)
            {
                spentBy.append(spender.txid)
            }
        }
        let fee = BTCAmount.text(tx.fee)
        return .object([
            .init("vsize", .integer(raw.vsize)),
            .init("weight", .integer(raw.weight)),
            .init("time", .integer(tx.firstSeen)),
            .init("height", .integer(chain.entryHeight(of: tx))),
            .init("descendantcount", .integer(1)),
            .init("descendantsize", .integer(raw.vsize)),
            .init("ancestorcount", .integer(1)),
            .init("ancestorsize", .integer(raw.vsize)),
            .init("wtxid", .string(raw.wtxid.displayHex)),
            .init(
                "fees",
                .object([
                    .init("base", .number(fee)), .init("modified", .number(fee)), .init("ancestor", .number(fee)),
                    .init("descendant", .number(fee)),
                ])
            ),
            .init("depends", .array(depends.map { .string($0) })),
            .init("spentby", .array(spentBy.map { .string($0) })),
            .init("bip125-replaceable", .bool(tx.signalsRBF)),
            .init("unbroadcast", .bool(false)),
        ])
    }

    /// `versionHex`: the version as 8 lower-case hex digits.
    static func versionHex(_ version: Int32) -> String {
        let hex = String(UInt32(bitPattern: version), radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

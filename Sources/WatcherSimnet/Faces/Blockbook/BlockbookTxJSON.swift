import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Blockbook's `Tx` objects for one chain snapshot: the full form of `/api/v2/tx` and address
/// `details=txs`, and the light form inside `/api/v2/block` pages. Empty fields are omitted the way
/// Blockbook's Go structs omit them (`omitempty`).
struct BlockbookTxJSON: Sendable {
    let chain: ChainModel

    /// The full transaction. `own` marks inputs/outputs of those addresses (one address's, or an xpub's) with
    /// `isOwn`; mempool transactions also carry `rbf`, the confirmation estimate and `coinSpecificData`.
    /// With `spending`, spent outputs carry `spentTxId`, `spentIndex` and (once confirmed) `spentHeight`.
    func full(_ tx: SimTransaction, own: Set<String> = [], spending: Bool = false) -> JSONValue {
        let wire = chain.serializer.serialize(tx)
        let location = chain.location(of: tx.txid)
        var object = JSONObjectBuilder()
        object.add("txid", .string(tx.txid))
        if tx.version != 0 { object.add("version", .integer(tx.version)) }
        if tx.lockTime != 0 { object.add("lockTime", .integer(tx.lockTime)) }
        object.add("vin", .array(fullInputs(tx, own: own, scripts: wire.inputScripts)))
        object.add("vout", .array(outputs(tx, own: own, withHex: true, spending: spending)))
        appendBlockFields(tx, location: location, to: &object, estimate: true)
        object.add("size", .integer(wire.size))
        object.add("vsize", .integer(wire.vsize))
        appendValues(tx, to: &object)
        object.add("hex", .string(wire.hex))
        if location == nil {
            if tx.signalsRBF { object.add("rbf", .bool(true)) }
            // Blockbook passes the node's `getrawtransaction <txid> 1` through for mempool transactions.
            object.add("coinSpecificData", .object(CoreTxJSON(chain: chain).members(tx, detail: .plain)))
        }
        return object.value
    }

    /// The light transaction of a block page: no hex, version or lock time; vin without txid/vout.
    func light(_ tx: SimTransaction) -> JSONValue {
        var object = JSONObjectBuilder()
        object.add("txid", .string(tx.txid))
        var vin: [JSONValue] = []
        if tx.isCoinbase {
            vin.append(
                .object([.init("n", .integer(0)), .init("isAddress", .bool(false)), .init("value", .string("0"))])
            )
        }
        for (n, input) in tx.inputs.enumerated() {
            vin.append(
                .object([
                    .init("n", .integer(n)),
                    .init("addresses", .array([.string(input.address)])),
                    .init("isAddress", .bool(true)),
                    .init("value", .satoshiString(input.value)),
                ])
            )
        }
        object.add("vin", .array(vin))
        object.add("vout", .array(outputs(tx, own: [], withHex: false)))
        appendBlockFields(tx, location: chain.location(of: tx.txid), to: &object, estimate: false)
        appendValues(tx, to: &object)
        return object.value
    }

    private func fullInputs(_ tx: SimTransaction, own: Set<String>, scripts: [String]) -> [JSONValue] {
        if let coinbase = tx.coinbaseScript {
            return [
                .object([
                    .init("sequence", .integer(0xffff_ffff as UInt32)),
                    .init("n", .integer(0)),
                    .init("isAddress", .bool(false)),
                    .init("coinbase", .string(coinbase)),
                ])
            ]
        }
        return tx.inputs.enumerated().map { n, input in
            var object = JSONObjectBuilder()
            object.add("txid", .string(input.prevout.txid))
            if input.prevout.vout != 0 { object.add("vout", .integer(input.prevout.vout)) }
            if input.sequence != 0 { object.add("sequence", .integer(input.sequence)) }
            object.add("n", .integer(n))
            object.add("addresses", .array([.string(input.address)]))
            object.add("isAddress", .bool(true))
            if own.contains(input.address) { object.add("isOwn", .bool(true)) }
            object.add("value", .satoshiString(input.value))
            // The scriptSig; empty (and so omitted) for native segwit inputs.
            if !scripts[n].isEmpty { object.add("hex", .string(scripts[n])) }
            return object.value
        }
    }

    private func outputs(_ tx: SimTransaction, own: Set<String>, withHex: Bool, spending: Bool = false) -> [JSONValue] {
        let serializer = chain.serializer
        return tx.outputs.enumerated().map { n, output in
            var object = JSONObjectBuilder()
            object.add("value", .satoshiString(output.value))
            object.add("n", .integer(n))
            if let spender = chain.spender(of: SimOutpoint(txid: tx.txid, vout: n)) {
                object.add("spent", .bool(true))
                if spending {
                    object.add("spentTxId", .string(spender.txid))
                    object.add("spentIndex", .integer(spender.input))
                    if let height = chain.location(of: spender.txid)?.height {
                        object.add("spentHeight", .integer(height))
                    }
                }
            }
            if withHex { object.add("hex", .string(Hex.encode(serializer.outputScript(output)))) }
            if let address = output.address {
                object.add("addresses", .array([.string(address)]))
                object.add("isAddress", .bool(true))
                if own.contains(address) { object.add("isOwn", .bool(true)) }
            } else {
                object.add("addresses", .array([.string("OP_RETURN \(output.opReturnData ?? "")")]))
                object.add("isAddress", .bool(false))
            }
            return object.value
        }
    }

    private func appendBlockFields(
        _ tx: SimTransaction,
        location: ChainModel.TxLocation?,
        to object: inout JSONObjectBuilder,
        estimate: Bool
    ) {
        if let location, let block = chain.block(height: location.height) {
            object.add("blockHash", .string(block.hash))
            object.add("blockHeight", .integer(location.height))
            object.add("confirmations", .integer(chain.confirmations(atHeight: location.height)))
            object.add("blockTime", .integer(block.time))
        } else {
            object.add("blockHeight", .integer(-1))
            object.add("confirmations", .integer(0))
            if estimate {
                object.add("confirmationETABlocks", .integer(1))
                object.add("confirmationETASeconds", .integer(600))
            }
            object.add("blockTime", .integer(tx.firstSeen))
        }
    }

    private func appendValues(_ tx: SimTransaction, to object: inout JSONObjectBuilder) {
        object.add("value", .satoshiString(tx.valueOut))
        object.add("valueIn", .satoshiString(tx.valueIn))
        object.add("fees", .satoshiString(tx.fee))
    }
}

import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Bitcoin Core's transaction JSON (`TxToUniv` in `core_write.cpp`, Core 29): what `getrawtransaction` verbose,
/// `getblock` verbosity 2 and 3, and `/rest/tx` and `/rest/block` print. Amounts are BTC JSON numbers written with
/// exactly 8 decimals.
struct CoreTxJSON: Sendable {
    let chain: ChainModel

    /// How much of the spent outputs to show (Core's `TxVerbosity`).
    enum Detail: Sendable {
        /// No undo data: no `fee`, no `prevout`.
        case plain
        /// `fee` (not for a coinbase).
        case fee
        /// `fee` and each input's `prevout`.
        case feeAndPrevout
    }

    /// The members of one transaction object; `blockHash` adds `blockhash` before `hex` (REST's form).
    func members(_ tx: SimTransaction, detail: Detail, blockHash: String? = nil, includeHex: Bool = true)
        -> [JSONValue.Member]
    {
        let raw = tx.raw
        var object = JSONObjectBuilder()
        object.add("txid", .string(tx.txid))
        object.add("hash", .string(raw.wtxid.displayHex))
        object.add("version", .integer(raw.version))
        object.add("size", .integer(raw.size))
        object.add("vsize", .integer(raw.vsize))
        object.add("weight", .integer(raw.weight))
        object.add("locktime", .integer(raw.lockTime))
        let undo = detail != .plain && !tx.isCoinbase
        var vin: [JSONValue] = []
        for (index, input) in raw.inputs.enumerated() {
            var item = JSONObjectBuilder()
            if tx.isCoinbase {
                item.add("coinbase", .string(Hex.encode(input.scriptSig)))
            } else {
                item.add("txid", .string(input.previousOutput.txid.displayHex))
                item.add("vout", .integer(input.previousOutput.vout))
                item.add(
                    "scriptSig",
                    .object([
                        .init("asm", .string(CoreScript.asm(input.scriptSig))),
                        .init("hex", .string(Hex.encode(input.scriptSig))),
                    ])
                )
            }
            if !input.witness.isEmpty {
                item.add("txinwitness", .array(input.witness.map { .string(Hex.encode($0)) }))
            }
            if undo && detail == .feeAndPrevout, tx.inputs.indices.contains(index) {
                item.add("prevout", prevout(tx.inputs[index]))
            }
            item.add("sequence", .integer(input.sequence))
            vin.append(item.value)
        }
        object.add("vin", .array(vin))
        let vout: [JSONValue] = raw.outputs.enumerated().map { n, output in
            .object([
                .init("value", .number(BTCAmount.text(output.value))),
                .init("n", .integer(n)),
                .init("scriptPubKey", scriptPubKey(output.scriptPubKey)),
            ])
        }
        object.add("vout", .array(vout))
        if undo { object.add("fee", .number(BTCAmount.text(tx.fee))) }
        if let blockHash { object.add("blockhash", .string(blockHash)) }
        if includeHex { object.add("hex", .string(raw.hex())) }
        return object.members
    }

    /// Core's `ScriptToUniv` with hex and address: `asm`, `desc`, `hex`, `address` (when there is one), `type`.
    func scriptPubKey(_ script: [UInt8]) -> JSONValue {
        let hex = Hex.encode(script)
        var object = JSONObjectBuilder()
        object.add("asm", .string(CoreScript.asm(script)))
        if let address = address(for: script) {
            let desc = "addr(\(address.string))"
            object.add("desc", .string(DescriptorChecksum.appending(to: desc) ?? desc))
            object.add("hex", .string(hex))
            object.add("address", .string(address.string))
            object.add("type", .string(address.coreTypeName))
        } else {
            let desc = "raw(\(hex))"
            object.add("desc", .string(DescriptorChecksum.appending(to: desc) ?? desc))
            object.add("hex", .string(hex))
            object.add("type", .string(script.first == 0x6a ? "nulldata" : "nonstandard"))
        }
        return object.value
    }

    /// Verbosity 3's `prevout`: whether the spent output was a coinbase's, its height, value and script.
    private func prevout(_ input: SimInput) -> JSONValue {
        let source = chain.transaction(input.prevout.txid)
        let script =
            source.flatMap { $0.raw.outputs.indices.contains(input.prevout.vout) ? $0 : nil }
            .map { $0.raw.outputs[input.prevout.vout].scriptPubKey } ?? []
        return .object([
            .init("generated", .bool(source?.isCoinbase ?? false)),
            .init("height", .integer(chain.location(of: input.prevout.txid)?.height ?? chain.tip.height + 1)),
            .init("value", .number(BTCAmount.text(input.value))),
            .init("scriptPubKey", scriptPubKey(script)),
        ])
    }

    private func address(for script: [UInt8]) -> SimAddress? {
        let network = chain.parameters.network
        guard let address = BitcoinAddress(scriptPubKey: script, network: network.addressNetwork) else { return nil }
        return SimAddress(address, network: network)
    }
}

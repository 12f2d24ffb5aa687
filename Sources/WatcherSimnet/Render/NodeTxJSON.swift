import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// Bitcoin Core's `getrawtransaction` verbose JSON, which Blockbook passes through as
/// `coinSpecificData` for mempool transactions. Amounts here are BTC as JSON numbers (the node's
/// format), not satoshi strings.
struct NodeTxJSON: Sendable {
    let chain: ChainModel

    func transaction(_ tx: SimTransaction, wire: TxSerializer.Result) -> JSONValue {
        var vin: [JSONValue] = []
        for (index, input) in tx.inputs.enumerated() {
            var object = JSONObjectBuilder()
            object.add("txid", .string(input.prevout.txid))
            object.add("vout", .integer(input.prevout.vout))
            object.add(
                "scriptSig",
                .object([.init("asm", .string("")), .init("hex", .string(wire.inputScripts[index]))])
            )
            let items = wire.witnessItems[index]
            if !items.isEmpty { object.add("txinwitness", .array(items.map { .string($0) })) }
            object.add("sequence", .integer(input.sequence))
            vin.append(object.value)
        }
        let serializer = chain.serializer
        let vout: [JSONValue] = tx.outputs.enumerated().map { n, output in
            var script = JSONObjectBuilder()
            let hex = Hex.encode(serializer.outputScript(output))
            if let text = output.address, let address = chain.address(text) {
                script.add("asm", .string(address.scriptAsm))
                script.add("desc", .string(DescriptorChecksum.appending(to: "addr(\(text))") ?? "addr(\(text))"))
                script.add("hex", .string(hex))
                script.add("address", .string(text))
                script.add("type", .string(address.coreTypeName))
            } else {
                script.add("asm", .string("OP_RETURN \(output.opReturnData ?? "")"))
                script.add("desc", .string(DescriptorChecksum.appending(to: "raw(\(hex))") ?? "raw(\(hex))"))
                script.add("hex", .string(hex))
                script.add("type", .string("nulldata"))
            }
            return .object([
                .init("value", .number(Self.btc(output.value))),
                .init("n", .integer(n)),
                .init("scriptPubKey", script.value),
            ])
        }
        return .object([
            .init("txid", .string(tx.txid)),
            .init("hash", .string(tx.txid)),
            .init("version", .integer(tx.version)),
            .init("size", .integer(wire.size)),
            .init("vsize", .integer(wire.vsize)),
            .init("weight", .integer(wire.weight)),
            .init("locktime", .integer(tx.lockTime)),
            .init("vin", .array(vin)),
            .init("vout", .array(vout)),
            .init("hex", .string(wire.hex)),
        ])
    }

    /// Satoshi as a BTC JSON number, e.g. `293135` → `0.00293135`, `100000000` → `1.00000000`.
    static func btc(_ sat: Int64) -> String {
        let sign = sat < 0 ? "-" : ""
        let magnitude = sat.magnitude
        let fraction = String(magnitude % 100_000_000)
        return "\(sign)\(magnitude / 100_000_000)." + String(repeating: "0", count: 8 - fraction.count) + fraction
    }
}

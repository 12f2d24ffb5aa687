import WatcherBitcoin
import WatcherCore

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
                script.add("desc", .string(DescriptorChecksum.append(to: "addr(\(text))")))
                script.add("hex", .string(hex))
                script.add("address", .string(text))
                script.add("type", .string(address.coreTypeName))
            } else {
                script.add("asm", .string("OP_RETURN \(output.opReturnData ?? "")"))
                script.add("desc", .string(DescriptorChecksum.append(to: "raw(\(hex))")))
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

/// Bitcoin Core's output-descriptor checksum (BIP380), e.g. `addr(bc1q…)#qmxeweuu`.
enum DescriptorChecksum {
    private static let inputCharset = Array(
        "0123456789()[],'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#\"\\ ".utf8
    )
    private static let checksumCharset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
    private static let generator: [UInt64] = [
        0xf5_dee5_1989, 0xa9_fdca_3312, 0x1b_ab10_e32d, 0x37_06b1_677a, 0x64_4d62_6ffd,
    ]

    /// `descriptor#checksum`, or the descriptor unchanged if it has a character outside the charset.
    static func append(to descriptor: String) -> String {
        var symbols: [UInt64] = []
        var groups: [UInt64] = []
        for char in descriptor.utf8 {
            guard let position = inputCharset.firstIndex(of: char) else { return descriptor }
            let value = UInt64(position)
            symbols.append(value & 31)
            groups.append(value >> 5)
            if groups.count == 3 {
                symbols.append(groups[0] * 9 + groups[1] * 3 + groups[2])
                groups = []
            }
        }
        if groups.count == 1 { symbols.append(groups[0]) }
        if groups.count == 2 { symbols.append(groups[0] * 3 + groups[1]) }
        let checksum = polymod(symbols + [UInt64](repeating: 0, count: 8)) ^ 1
        let suffix = (0..<8).map { checksumCharset[Int((checksum >> (5 * (7 - UInt64($0)))) & 31)] }
        return descriptor + "#" + String(decoding: suffix, as: UTF8.self)
    }

    private static func polymod(_ symbols: [UInt64]) -> UInt64 {
        var chk: UInt64 = 1
        for value in symbols {
            let top = chk >> 35
            chk = (chk & 0x7_ffff_ffff) << 5 ^ value
            for i in 0..<5 where (top >> UInt64(i)) & 1 == 1 {
                chk ^= generator[i]
            }
        }
        return chk
    }
}

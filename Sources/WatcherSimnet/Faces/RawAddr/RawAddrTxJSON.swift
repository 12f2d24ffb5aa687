import WatcherBitcoin
import WatcherCore
import WatcherJSON

/// blockchain.info's `Tx` object (shared by rawaddr and multiaddr) for one chain snapshot.
struct RawAddrTxJSON: Sendable {
    let chain: ChainModel

    /// The transaction. With `filter`, only inputs and outputs touching those addresses are listed
    /// (multiaddr's behaviour) while `vin_sz`/`vout_sz` keep the true counts. `result` and `balance`
    /// are the net effect on, and running balance of, the queried address set.
    func transaction(_ tx: SimTransaction, filter: Set<String>?, result: Int64, balance: Int64) -> JSONValue {
        let wire = chain.serializer.serialize(tx)
        let location = chain.location(of: tx.txid)
        let time = location.flatMap { chain.block(height: $0.height)?.time } ?? tx.firstSeen
        var inputs: [JSONValue] = []
        if let coinbase = tx.coinbaseScript {
            inputs.append(
                .object([
                    .init("sequence", .integer(0xffff_ffff as UInt32)),
                    .init("witness", .string(Self.coinbaseWitness(tx))),
                    .init("script", .string(coinbase)),
                    .init("index", .integer(0)),
                    .init("prev_out", .null),
                ])
            )
        }
        for (index, input) in tx.inputs.enumerated() where filter?.contains(input.address) ?? true {
            inputs.append(
                .object([
                    .init("sequence", .integer(input.sequence)),
                    .init("witness", .string(wire.inputWitnesses[index])),
                    .init("script", .string(wire.inputScripts[index])),
                    .init("index", .integer(index)),
                    .init("prev_out", output(of: input, spentBy: tx, input: index)),
                ])
            )
        }
        var outs: [JSONValue] = []
        for (n, out) in tx.outputs.enumerated() where filter.map({ out.address.map($0.contains) ?? false }) ?? true {
            outs.append(output(out, n: n, of: tx))
        }
        let height: JSONValue = location.map { .integer($0.height) } ?? .null
        return .object([
            .init("hash", .string(tx.txid)),
            .init("ver", .integer(tx.version)),
            .init("vin_sz", .integer(max(1, tx.inputs.count))),
            .init("vout_sz", .integer(tx.outputs.count)),
            .init("size", .integer(wire.size)),
            .init("weight", .integer(wire.weight)),
            .init("fee", .integer(tx.fee)),
            .init("relayed_by", .string("0.0.0.0")),
            .init("lock_time", .integer(tx.lockTime)),
            .init("tx_index", .integer(tx.txIndex)),
            .init("double_spend", .bool(false)),
            .init("time", .integer(time)),
            .init("block_index", height),
            .init("block_height", height),
            .init("inputs", .array(inputs)),
            .init("out", .array(outs)),
            .init("result", .integer(result)),
            .init("balance", .integer(balance)),
        ])
    }

    /// The coinbase input's witness stack serialization (count + items) as hex, `""` without one.
    private static func coinbaseWitness(_ tx: SimTransaction) -> String {
        guard let input = tx.raw.inputs.first, !input.witness.isEmpty else { return "" }
        var writer = ByteWriter()
        input.writeWitness(to: &writer)
        return Hex.encode(writer.bytes)
    }

    /// An entry of `out`.
    private func output(_ out: SimOutput, n: Int, of tx: SimTransaction) -> JSONValue {
        let spender = chain.spender(of: SimOutpoint(txid: tx.txid, vout: n))
        var object = JSONObjectBuilder()
        object.add("type", .integer(0))
        object.add("spent", .bool(spender != nil))
        object.add("value", .integer(out.value))
        object.add("spending_outpoints", .array(spender.map { [spendingOutpoint($0)] } ?? []))
        object.add("n", .integer(n))
        object.add("tx_index", .integer(tx.txIndex))
        object.add("script", .string(Hex.encode(chain.serializer.outputScript(out))))
        if let address = out.address { object.add("addr", .string(address)) }
        return object.value
    }

    /// An input's `prev_out`: the spent output, which this input spends.
    private func output(of input: SimInput, spentBy tx: SimTransaction, input index: Int) -> JSONValue {
        let previous = chain.transaction(input.prevout.txid)
        let script = chain.address(input.address)?.scriptHex ?? ""
        return .object([
            .init("type", .integer(0)),
            .init("spent", .bool(true)),
            .init("value", .integer(input.value)),
            .init(
                "spending_outpoints",
                .array([.object([.init("tx_index", .integer(tx.txIndex)), .init("n", .integer(index))])])
            ),
            .init("n", .integer(input.prevout.vout)),
            .init("tx_index", .integer(previous?.txIndex ?? 0)),
            .init("script", .string(script)),
            .init("addr", .string(input.address)),
        ])
    }

    private func spendingOutpoint(_ spend: ChainModel.SpendRef) -> JSONValue {
        .object([
            .init("tx_index", .integer(chain.transaction(spend.txid)?.txIndex ?? 0)),
            .init("n", .integer(spend.input)),
        ])
    }
}

import WatcherBitcoin
import WatcherCore

/// The raw wire form of a simulated transaction: BIP144 serialization with plausible signatures.
///
/// Signatures and public keys are filler bytes derived from the txid, so a transaction always
/// serializes to the same bytes. The txid is not the hash of these bytes (the simnet draws ids at
/// random); sizes, scripts, values and witness layout are faithful.
struct TxSerializer: Sendable {
    /// The serialized forms of one transaction.
    struct Result: Sendable {
        /// The full serialization (with witness when there is one), as hex.
        var hex: String
        /// Total size in bytes.
        var size: Int
        /// BIP141 weight.
        var weight: Int
        /// Each input's scriptSig, as hex.
        var inputScripts: [String]
        /// Each input's witness stack serialization (count + items), as hex; `""` when empty.
        var inputWitnesses: [String]
        /// Each input's witness items, as hex.
        var witnessItems: [[String]]

        /// Virtual size: weight / 4 rounded up.
        var vsize: Int { (weight + 3) / 4 }
    }

    /// Looks up the script type of an address.
    let resolve: @Sendable (String) -> SimAddress?

    func serialize(_ tx: SimTransaction) -> Result {
        var filler = SplitMixRandom(seed: UInt64(tx.txid.prefix(16), radix: 16) ?? 0)
        var scriptSigs: [[UInt8]] = []
        var witnesses: [[[UInt8]]] = []
        if let coinbase = tx.coinbaseScript {
            scriptSigs.append(Hex.decode(coinbase) ?? [])
            witnesses.append([[UInt8](repeating: 0, count: 32)])
        }
        for input in tx.inputs {
            let (scriptSig, witness) = unlocking(resolve(input.address), filler: &filler)
            scriptSigs.append(scriptSig)
            witnesses.append(witness)
        }
        let hasWitness = witnesses.contains { !$0.isEmpty }

        var base: [UInt8] = []
        append32(UInt32(bitPattern: tx.version), to: &base)
        var body: [UInt8] = []
        appendVarInt(scriptSigs.count, to: &body)
        if let coinbase = tx.coinbaseScript {
            body += [UInt8](repeating: 0, count: 32) + [0xff, 0xff, 0xff, 0xff]
            appendVarInt(Hex.decode(coinbase)?.count ?? 0, to: &body)
            body += Hex.decode(coinbase) ?? []
            append32(0xffff_ffff, to: &body)
        }
        for (index, input) in tx.inputs.enumerated() {
            body += (Hex.decode(input.prevout.txid) ?? []).reversed()
            append32(UInt32(truncatingIfNeeded: input.prevout.vout), to: &body)
            let scriptSig = scriptSigs[index + (tx.isCoinbase ? 1 : 0)]
            appendVarInt(scriptSig.count, to: &body)
            body += scriptSig
            append32(input.sequence, to: &body)
        }
        appendVarInt(tx.outputs.count, to: &body)
        for output in tx.outputs {
            append64(UInt64(bitPattern: output.value), to: &body)
            let script = outputScript(output)
            appendVarInt(script.count, to: &body)
            body += script
        }
        var witnessBytes: [UInt8] = []
        var witnessHex: [String] = []
        for stack in witnesses {
            var one: [UInt8] = []
            if hasWitness { appendVarInt(stack.count, to: &one) }
            for item in stack {
                appendVarInt(item.count, to: &one)
                one += item
            }
            witnessBytes += one
            witnessHex.append(stack.isEmpty ? "" : Hex.encode(one))
        }
        var lockTime: [UInt8] = []
        append32(tx.lockTime, to: &lockTime)

        let stripped = base + body + lockTime
        let full = hasWitness ? base + [0x00, 0x01] + body + witnessBytes + lockTime : stripped
        let offset = tx.isCoinbase ? 1 : 0
        return Result(
            hex: Hex.encode(full),
            size: full.count,
            weight: stripped.count * 3 + full.count,
            inputScripts: scriptSigs.dropFirst(offset).map { Hex.encode($0) },
            inputWitnesses: Array(witnessHex.dropFirst(offset)),
            witnessItems: witnesses.dropFirst(offset).map { $0.map { Hex.encode($0) } }
        )
    }

    /// The scriptPubKey of an output.
    func outputScript(_ output: SimOutput) -> [UInt8] {
        if let address = output.address {
            return resolve(address)?.scriptPubKey ?? []
        }
        let data = Hex.decode(output.opReturnData ?? "") ?? []
        return [0x6a, UInt8(data.count)] + data
    }

    private func unlocking(_ address: SimAddress?, filler: inout SplitMixRandom) -> ([UInt8], [[UInt8]]) {
        let signature = [0x30, 0x44] + filler.bytes(69)  // DER-ish 71 bytes incl. sighash byte
        let pubkey = [0x02] + filler.bytes(32)
        switch address?.kind {
        case .p2pkh, nil:
            return ([UInt8(signature.count)] + signature + [UInt8(pubkey.count)] + pubkey, [])
        case .p2sh:
            // Nested P2WPKH: the scriptSig pushes the redeem script.
            let redeem: [UInt8] = [0x00, 0x14] + filler.bytes(20)
            return ([UInt8(redeem.count)] + redeem, [signature, pubkey])
        case .p2wpkh, .p2wsh, .witnessUnknown:
            return ([], [signature, pubkey])
        case .p2tr:
            return ([], [filler.bytes(64)])
        }
    }

    private func appendVarInt(_ value: Int, to bytes: inout [UInt8]) {
        switch value {
        case ..<0xfd: bytes.append(UInt8(value))
        case ...0xffff: bytes += [0xfd, UInt8(value & 0xff), UInt8(value >> 8)]
        default:
            bytes.append(0xfe)
            append32(UInt32(truncatingIfNeeded: value), to: &bytes)
        }
    }

    private func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    private func append64(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}

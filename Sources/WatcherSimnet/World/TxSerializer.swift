import WatcherBitcoin
import WatcherCore

/// The raw wire form of simulated transactions: building them (BIP144 serialization with filler signatures whose
/// shape fits each input's script type) and reading the parts the renderers print.
///
/// Signatures and public keys are filler bytes from a seeded generator, so they verify nothing; sizes, scripts,
/// values, outpoints and witness layout are faithful, and the txid is the real hash of the bytes.
struct TxSerializer: Sendable {
    /// The serialized forms of one transaction.
    struct Result: Sendable {
        /// The full serialization (with witness when there is one), as hex.
        var hex: String
        /// Total size in bytes.
        var size: Int
        /// BIP141 weight.
        var weight: Int
        /// Each input's scriptSig, as hex (the coinbase's excluded).
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
        let raw = tx.raw
        let offset = tx.isCoinbase ? 1 : 0
        let inputs = raw.inputs.dropFirst(offset)
        return Result(
            hex: raw.hex(),
            size: raw.size,
            weight: raw.weight,
            inputScripts: inputs.map { Hex.encode($0.scriptSig) },
            inputWitnesses: inputs.map { input in
                guard !input.witness.isEmpty else { return "" }
                var writer = ByteWriter()
                input.writeWitness(to: &writer)
                return Hex.encode(writer.bytes)
            },
            witnessItems: inputs.map { $0.witness.map { Hex.encode($0) } }
        )
    }

    /// The scriptPubKey of an output.
    func outputScript(_ output: SimOutput) -> [UInt8] {
        Self.outputScript(output, resolve: resolve)
    }

    static func outputScript(_ output: SimOutput, resolve: (String) -> SimAddress?) -> [UInt8] {
        if let address = output.address {
            return resolve(address)?.scriptPubKey ?? []
        }
        let data = Hex.decode(output.opReturnData ?? "") ?? []
        return [0x6a, UInt8(data.count)] + data
    }

    /// A spend: each input unlocks its prevout with filler of the right shape for the owner's script type.
    static func spend(
        version: Int32,
        lockTime: UInt32,
        inputs: [SimInput],
        outputs: [SimOutput],
        filler: inout SplitMixRandom,
        resolve: (String) -> SimAddress?
    ) -> Transaction {
        let rawInputs = inputs.map { input in
            let (scriptSig, witness) = unlocking(resolve(input.address), filler: &filler)
            let txid = Hash256(displayHex: input.prevout.txid) ?? .zero
            return TransactionInput(
                previousOutput: OutPoint(txid: txid, vout: UInt32(truncatingIfNeeded: input.prevout.vout)),
                scriptSig: scriptSig,
                sequence: input.sequence,
                witness: witness
            )
        }
        return Transaction(
            version: version,
            inputs: rawInputs,
            outputs: outputs.map {
                TransactionOutput(value: $0.value, scriptPubKey: outputScript($0, resolve: resolve))
            },
            lockTime: lockTime
        )
    }

    /// A coinbase: the BIP34 height push then an extra nonce in the scriptSig; with a witness commitment output,
    /// the 32-byte witness reserved value (all zero) as its witness.
    static func coinbase(
        height: Int,
        extraNonce: [UInt8],
        outputs: [SimOutput],
        witness: Bool,
        resolve: (String) -> SimAddress?
    ) -> Transaction {
        let scriptSig = heightPush(height) + [UInt8(extraNonce.count)] + extraNonce
        return Transaction(
            version: 2,
            inputs: [
                TransactionInput(
                    previousOutput: .null,
                    scriptSig: scriptSig,
                    sequence: TransactionInput.finalSequence,
                    witness: witness ? [[UInt8](repeating: 0, count: 32)] : []
                )
            ],
            outputs: outputs.map {
                TransactionOutput(value: $0.value, scriptPubKey: outputScript($0, resolve: resolve))
            },
            lockTime: 0
        )
    }

    /// The script pushing `height` as Bitcoin Core's `CScript() << height` does: `OP_0`, `OP_1`…`OP_16`, or the
    /// minimal little-endian script number.
    static func heightPush(_ height: Int) -> [UInt8] {
        if height == 0 { return [0x00] }
        if (1...16).contains(height) { return [0x50 + UInt8(height)] }
        var number: [UInt8] = []
        var value = height
        while value > 0 {
            number.append(UInt8(value & 0xff))
            value >>= 8
        }
        if let last = number.last, last & 0x80 != 0 { number.append(0) }
        return [UInt8(number.count)] + number
    }

    /// The BIP141 witness commitment of a block whose transactions after the coinbase are `transactions`: the double
    /// SHA-256 of the merkle root of the wtxids (the coinbase's taken as zero) and the all-zero reserved value.
    static func witnessCommitment(_ transactions: [Transaction]) -> [UInt8] {
        let wtxids = [Hash256.zero] + transactions.map(\.wtxid)
        return sha256d(MerkleRoot.compute(wtxids).bytes + [UInt8](repeating: 0, count: 32))
    }

    private static func unlocking(_ address: SimAddress?, filler: inout SplitMixRandom) -> ([UInt8], [[UInt8]]) {
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
}

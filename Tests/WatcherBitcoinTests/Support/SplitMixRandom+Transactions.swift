import WatcherBitcoin
import WatcherCore

// Random transactions for the round-trip property tests, from the project's seeded generator.
extension SplitMixRandom {
    /// A length that is usually short but sometimes crosses the 0xfd CompactSize boundary.
    mutating func length() -> Int {
        switch Int.random(in: 0..<10, using: &self) {
        case 0: 0
        case 1: Int.random(in: 250...600, using: &self)
        default: Int.random(in: 1...80, using: &self)
        }
    }

    /// A random transaction: a coinbase or 1–5 spending inputs, 0–4 outputs, and witness stacks when `witness`.
    mutating func transaction(witness: Bool, coinbase: Bool) -> Transaction {
        var inputs: [TransactionInput] = []
        if coinbase {
            inputs.append(
                TransactionInput(
                    previousOutput: .null,
                    scriptSig: bytes(Int.random(in: 2...100, using: &self)),
                    sequence: .random(in: 0...UInt32.max, using: &self),
                    witness: witness ? [[UInt8](repeating: 0, count: 32)] : []
                )
            )
        } else {
            for _ in 0..<Int.random(in: 1...5, using: &self) {
                var stack: [[UInt8]] = []
                if witness {
                    stack = (0..<Int.random(in: 0...4, using: &self)).map { _ in bytes(length()) }
                }
                inputs.append(
                    TransactionInput(
                        previousOutput: OutPoint(
                            txid: Hash256(bytes: bytes(32))!,
                            vout: .random(in: 0...UInt32.max, using: &self)
                        ),
                        scriptSig: bytes(length()),
                        sequence: .random(in: 0...UInt32.max, using: &self),
                        witness: stack
                    )
                )
            }
            if witness, !inputs.contains(where: { !$0.witness.isEmpty }) {
                inputs[0].witness = [bytes(length())]
            }
        }
        let outputs = (0..<Int.random(in: 0...4, using: &self)).map { _ in
            TransactionOutput(
                value: .random(in: 0...2_100_000_000_000_000, using: &self),
                scriptPubKey: bytes(length())
            )
        }
        return Transaction(
            version: .random(in: Int32.min...Int32.max, using: &self),
            inputs: inputs,
            outputs: outputs,
            lockTime: .random(in: 0...UInt32.max, using: &self)
        )
    }
}

/// Per-address history and totals over the confirmed chain, updated block by block.
///
/// Transactions are connected in chain order and disconnected in exactly the reverse order
/// (reorgs), so each address's txid list behaves like a stack.
struct AddressLedger: Sendable {
    struct Entry: Sendable {
        /// Confirmed txids touching the address, oldest first.
        var txids: [String] = []
        /// Confirmed satoshi received.
        var received: Int64 = 0
        /// Confirmed satoshi sent.
        var sent: Int64 = 0
    }

    private(set) var entries: [String: Entry] = [:]

    func entry(_ address: String) -> Entry {
        entries[address] ?? Entry()
    }

    mutating func connect(_ tx: SimTransaction) {
        for address in tx.touchedAddresses {
            entries[address, default: Entry()].txids.append(tx.txid)
        }
        for output in tx.outputs {
            if let address = output.address { entries[address, default: Entry()].received += output.value }
        }
        for input in tx.inputs {
            entries[input.address, default: Entry()].sent += input.value
        }
    }

    mutating func disconnect(_ tx: SimTransaction) {
        for address in tx.touchedAddresses {
            if entries[address]?.txids.last == tx.txid { entries[address]?.txids.removeLast() }
        }
        for output in tx.outputs {
            if let address = output.address { entries[address]?.received -= output.value }
        }
        for input in tx.inputs {
            entries[input.address]?.sent -= input.value
        }
    }
}

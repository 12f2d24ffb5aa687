import WatcherBitcoin

/// A reference to one output of a transaction.
public struct SimOutpoint: Sendable, Hashable {
    /// The transaction id.
    public let txid: String
    /// The output index.
    public let vout: Int
}

/// A transaction input that spends an earlier output.
public struct SimInput: Sendable, Hashable {
    /// The output being spent.
    public let prevout: SimOutpoint
    /// The address that owned the spent output.
    public let address: String
    /// The value of the spent output, in satoshi.
    public let value: Int64
    /// The input's sequence number.
    public let sequence: UInt32
}

/// A transaction output.
public struct SimOutput: Sendable, Hashable {
    /// The address paid, or `nil` for an `OP_RETURN` data output.
    public let address: String?
    /// The value in satoshi.
    public let value: Int64
    /// The pushed data of an `OP_RETURN` output (hex), `nil` for address outputs.
    public let opReturnData: String?

    /// An output paying `address`.
    public init(address: String, value: Int64) {
        self.address = address
        self.value = value
        self.opReturnData = nil
    }

    /// An `OP_RETURN` output carrying `data`.
    public init(opReturn data: [UInt8]) {
        self.address = nil
        self.value = 0
        self.opReturnData = Hex.encode(data)
    }
}

/// A simulated transaction. Amounts are integer satoshi.
///
/// ``raw`` is its consensus serialization (WatcherBitcoin's ``Transaction``): real outpoints, scripts, values and
/// witness layout, with filler signatures. The ``txid`` is the double SHA-256 of its non-witness serialization.
public struct SimTransaction: Sendable, Hashable {
    /// The transaction id (64 hex characters, display order): the hash of ``raw`` without witness.
    public let txid: String
    /// The transaction version.
    public let version: Int32
    /// The lock time.
    public let lockTime: UInt32
    /// The inputs; empty for a coinbase transaction.
    public let inputs: [SimInput]
    /// The outputs.
    public let outputs: [SimOutput]
    /// The coinbase script (hex) of a coinbase transaction, `nil` otherwise.
    public let coinbaseScript: String?
    /// Unix time when the simnet first saw the transaction.
    public let firstSeen: Int64
    /// blockchain.info's internal `tx_index`.
    public let txIndex: Int64
    /// The serialized transaction.
    public let raw: Transaction
    /// The txid as a hash (internal byte order), for merkle trees.
    public let txidHash: Hash256

    /// A transaction from its wire form and the simnet's view of its inputs (prevout owners and values) and outputs.
    init(raw: Transaction, inputs: [SimInput], outputs: [SimOutput], firstSeen: Int64, txIndex: Int64) {
        let hash = raw.txid
        self.raw = raw
        self.txidHash = hash
        self.txid = hash.displayHex
        self.version = raw.version
        self.lockTime = raw.lockTime
        self.inputs = inputs
        self.outputs = outputs
        self.coinbaseScript = raw.isCoinbase ? Hex.encode(raw.inputs[0].scriptSig) : nil
        self.firstSeen = firstSeen
        self.txIndex = txIndex
    }

    /// `true` for the first transaction of a block, which mints new coins.
    public var isCoinbase: Bool { coinbaseScript != nil }

    /// The sum of the inputs' values.
    public var valueIn: Int64 { inputs.reduce(0) { $0 + $1.value } }

    /// The sum of the outputs' values.
    public var valueOut: Int64 { outputs.reduce(0) { $0 + $1.value } }

    /// The fee paid to the miner; zero for a coinbase.
    public var fee: Int64 { isCoinbase ? 0 : valueIn - valueOut }

    /// `true` if any input signals replace-by-fee (BIP125).
    public var signalsRBF: Bool { inputs.contains { $0.sequence < 0xffff_fffe } }

    /// Every address the transaction touches, in first-seen order (inputs, then outputs), without repeats.
    public var touchedAddresses: [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for address in inputs.map(\.address) + outputs.compactMap(\.address) where seen.insert(address).inserted {
            result.append(address)
        }
        return result
    }

    /// The net satoshi this transaction moves into (positive) or out of (negative) `addresses`.
    public func delta(for addresses: Set<String>) -> Int64 {
        let received = outputs.reduce(Int64(0)) { $0 + ($1.address.map(addresses.contains) == true ? $1.value : 0) }
        let sent = inputs.reduce(Int64(0)) { $0 + (addresses.contains($1.address) ? $1.value : 0) }
        return received - sent
    }
}

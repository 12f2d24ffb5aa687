import Foundation

/// Names a block by height or by hash.
public enum BlockID: Sendable, Hashable, CustomStringConvertible {
    case height(Int)
    case hash(String)

    /// Parses a 64-hex hash or a height (up to 10 digits). A hash is tried first: block hashes start with zeros,
    /// and one whose hex digits happen to all be decimal must not read as a height.
    public init?(_ text: String) {
        if text.count == 64, text.allSatisfy(\.isHexDigit) {
            self = .hash(text.lowercased())
        } else if text.count <= 10, let height = Int(text), height >= 0 {
            self = .height(height)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .height(let h): "\(h)"
        case .hash(let h): h
        }
    }
}

/// One transaction as it touches one address, newest first in lists.
public struct AddressTx: Sendable, Hashable, Codable {
    /// The txid.
    public var txid: String
    /// The confirming block's height, `nil` while unconfirmed.
    public var blockHeight: Int?
    /// The confirming block's hash, when the provider gives it.
    public var blockHash: String?
    /// Block time, or first-seen time while unconfirmed.
    public var time: Date?
    /// Net effect on the address in satoshi: received minus spent.
    public var deltaSat: Int64
    /// What the provider tells about the transaction itself (fee, size, inputs), for the zero-conf facts of
    /// `address.tx.unconfirmed`; `nil` when it tells nothing.
    public var facts: TxFacts?

    /// Creates an entry.
    public init(
        txid: String,
        blockHeight: Int?,
        blockHash: String? = nil,
        time: Date?,
        deltaSat: Int64,
        facts: TxFacts? = nil
    ) {
        self.txid = txid
        self.blockHeight = blockHeight
        self.blockHash = blockHash
        self.time = time
        self.deltaSat = deltaSat
        self.facts = facts
    }
}

/// An input or output: an address (when the script has one) and an exact value.
public struct TxEndpoint: Sendable, Hashable, Codable {
    /// The address, `nil` for coinbase inputs and non-address scripts.
    public var address: String?
    /// The value in satoshi.
    public var valueSat: Int64

    /// Creates an endpoint.
    public init(address: String?, valueSat: Int64) {
        self.address = address
        self.valueSat = valueSat
    }
}

/// A whole transaction. Confirmations are not stored: they are computed from the tip.
public struct ChainTransaction: Sendable, Hashable, Codable {
    /// The txid.
    public var txid: String
    /// The confirming block's height, `nil` while unconfirmed.
    public var blockHeight: Int?
    /// The confirming block's hash.
    public var blockHash: String?
    /// Block time, or first-seen time.
    public var time: Date?
    /// The fee in satoshi, when known.
    public var feeSat: Int64?
    /// Inputs.
    public var inputs: [TxEndpoint]
    /// Outputs.
    public var outputs: [TxEndpoint]

    /// Creates a transaction.
    public init(
        txid: String,
        blockHeight: Int?,
        blockHash: String?,
        time: Date?,
        feeSat: Int64?,
        inputs: [TxEndpoint],
        outputs: [TxEndpoint]
    ) {
        self.txid = txid
        self.blockHeight = blockHeight
        self.blockHash = blockHash
        self.time = time
        self.feeSat = feeSat
        self.inputs = inputs
        self.outputs = outputs
    }

    /// Confirmations at `tipHeight`: `tip - height + 1`, 0 while unconfirmed.
    public func confirmations(tipHeight: Int) -> Int {
        guard let blockHeight, tipHeight >= blockHeight else { return 0 }
        return tipHeight - blockHeight + 1
    }

    /// Net effect on `address`: outputs paying it minus inputs spending from it.
    public func delta(for address: String) -> Int64 {
        outputs.filter { $0.address == address }.reduce(0) { $0 + $1.valueSat }
            - inputs.filter { $0.address == address }.reduce(0) { $0 + $1.valueSat }
    }
}

/// One page of a block's transactions.
public struct BlockTxPage: Sendable, Hashable {
    /// 1-based page number.
    public var page: Int
    /// Total pages.
    public var totalPages: Int
    /// The transactions on this page.
    public var transactions: [ChainTransaction]

    /// Creates a page.
    public init(page: Int, totalPages: Int, transactions: [ChainTransaction]) {
        self.page = page
        self.totalPages = totalPages
        self.transactions = transactions
    }
}

/// Whether a provider can be trusted right now.
public struct ProviderHealth: Sendable, Hashable {
    /// In sync and serving.
    public var isHealthy: Bool
    /// Why not, for logs and `/healthz`.
    public var reason: String?
    /// The height it has indexed, when it says.
    public var bestHeight: Int?

    /// Creates a health report.
    public init(isHealthy: Bool, reason: String? = nil, bestHeight: Int? = nil) {
        self.isHealthy = isHealthy
        self.reason = reason
        self.bestHeight = bestHeight
    }
}

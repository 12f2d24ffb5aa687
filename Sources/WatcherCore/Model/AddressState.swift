import Foundation

/// The engine's memory of one watched address: the last summary and the transactions it has reported.
public struct AddressState: Sendable, Hashable, Codable {
    /// A transaction known to touch the address.
    public struct TrackedTx: Sendable, Hashable, Codable {
        /// The txid.
        public var txid: String
        /// The confirming block's height, `nil` while unconfirmed.
        public var blockHeight: Int?
        /// The confirming block's hash, `nil` while unconfirmed.
        public var blockHash: String?
        /// Net effect on the address, in satoshi.
        public var deltaSat: Int64
        /// Confirmation thresholds already announced.
        public var announced: [Int]
        /// The outputs its inputs spend, where the provider gave them (``TxFacts/outpoints``): kept until the
        /// transaction is settled, to find what replaced it if it vanishes. Absent from records stored before.
        public var spends: [TxOutpoint]?
        /// What the provider told of it while unconfirmed (fee, size, RBF signalling, unconfirmed inputs), without
        /// its inputs' outpoints and parents: what a payment request's zero-conf policy reads. Absent from records
        /// stored before, and for transactions first seen confirmed.
        public var facts: TxFacts?
        /// Under `agree`, the providers that held its confirmation in its block when it was confirmed.
        public var verifiedBy: [String]?
        /// Where the watch asks the other providers about unconfirmed transactions (`agree`, `zeroConf.minSeenBy`),
        /// those that reported it while it was unconfirmed (in their mempool or a block), the one in charge first.
        public var seenBy: [String]?

        /// Creates a tracked transaction.
        public init(
            txid: String,
            blockHeight: Int?,
            blockHash: String?,
            deltaSat: Int64,
            announced: [Int] = [],
            spends: [TxOutpoint]? = nil
        ) {
            self.txid = txid
            self.blockHeight = blockHeight
            self.blockHash = blockHash
            self.deltaSat = deltaSat
            self.announced = announced
            self.spends = spends
        }
    }

    /// The chain.
    public var chain: String
    /// The address.
    public var address: String
    /// The last summary seen, `nil` before the first poll.
    public var summary: AddressSummary?
    /// Known transactions by txid.
    public var txs: [String: TrackedTx]
    /// When it was last refreshed.
    public var updatedAt: Date?
    /// The first block height whose transactions are announced; older history found at the first observation is
    /// recorded silently. Set at the first observation (the watch's `from`, else the tip then + 1).
    public var since: Int?
    /// Where the address sits in a followed wallet, for a wallet's address; `nil` for addresses followed one by one.
    public var wallet: WalletAddressRef?
    /// Transactions that left the address replaced, with the transaction a provider named as their replacement
    /// (the newest ``keptReplacements``), oldest first: a payment request names the replacement of a payment even
    /// when the replacement does not touch the address. Absent from records stored before.
    public var replacements: [Replacement]?

    /// A transaction replaced, and by what.
    public struct Replacement: Sendable, Hashable, Codable {
        /// The transaction that left.
        public var txid: String
        /// The one that spends the same outputs.
        public var replacedBy: String

        /// Creates a record.
        public init(txid: String, replacedBy: String) {
            self.txid = txid
            self.replacedBy = replacedBy
        }
    }

    /// Most replacements remembered per address.
    public static let keptReplacements = 50

    /// Creates an empty state.
    public init(chain: String, address: String, summary: AddressSummary? = nil, txs: [String: TrackedTx] = [:]) {
        self.chain = chain
        self.address = address
        self.summary = summary
        self.txs = txs
    }
}

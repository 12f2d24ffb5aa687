/// What one request for a whole wallet returns (Blockbook's `/api/v2/xpub/<descriptor>`): its used addresses with
/// their derivation paths, and one page of its transactions, mempool ones first, then confirmed ones newest first.
///
/// The provider derives the addresses itself, up to the last used one plus `gap` on each branch; the engine checks
/// that each path re-derives to its address before it trusts the page.
public struct WalletSummary: Sendable, Hashable {
    /// One used address of the wallet.
    public struct Token: Sendable, Hashable {
        /// The address.
        public var address: String
        /// Its derivation path as the provider prints it, e.g. `m/84'/0'/0'/1/7`: the last two steps are the
        /// branch (0 receive, 1 change) and the index.
        public var path: String
        /// Confirmed transactions touching it.
        public var transfers: Int
        /// Confirmed balance, when the provider gives it.
        public var balanceSat: Int64?
        /// Total received (confirmed), when given.
        public var totalReceivedSat: Int64?
        /// Total sent (confirmed), when given.
        public var totalSentSat: Int64?

        /// Creates a token.
        public init(
            address: String,
            path: String,
            transfers: Int,
            balanceSat: Int64?,
            totalReceivedSat: Int64?,
            totalSentSat: Int64?
        ) {
            self.address = address
            self.path = path
            self.transfers = transfers
            self.balanceSat = balanceSat
            self.totalReceivedSat = totalReceivedSat
            self.totalSentSat = totalSentSat
        }

        /// The branch (0 or 1) and index the path ends with, `nil` when it does not end with two plain steps.
        public var branchAndIndex: (branch: Int, index: Int)? {
            let steps = path.split(separator: "/")
            guard steps.count >= 2, let branch = Int(steps[steps.count - 2]), let index = Int(steps[steps.count - 1]),
                branch >= 0, index >= 0
            else { return nil }
            return (branch, index)
        }
    }

    /// The page returned (1-based; the provider clamps pages past the end).
    public var page: Int
    /// Total pages of confirmed transactions; -1 when unknown.
    public var totalPages: Int
    /// Confirmed balance of the whole wallet.
    public var balanceSat: Int64
    /// Net mempool effect on the wallet, when given.
    public var unconfirmedBalanceSat: Int64?
    /// Confirmed transactions of the wallet.
    public var txCount: Int
    /// Mempool transactions of the wallet.
    public var unconfirmedTxCount: Int
    /// The used addresses.
    public var tokens: [Token]
    /// This page's transactions (mempool ones on page 1 only), newest first.
    public var transactions: [ChainTransaction]
    /// The zero-conf facts of this page's transactions, by txid, where the provider gives them (Blockbook's
    /// `details=txs` form has `fees`, `vsize` and each vin's `txid` and `sequence`).
    public var facts: [String: TxFacts]

    /// Creates a summary.
    public init(
        page: Int,
        totalPages: Int,
        balanceSat: Int64,
        unconfirmedBalanceSat: Int64?,
        txCount: Int,
        unconfirmedTxCount: Int,
        tokens: [Token],
        transactions: [ChainTransaction],
        facts: [String: TxFacts] = [:]
    ) {
        self.page = page
        self.totalPages = totalPages
        self.balanceSat = balanceSat
        self.unconfirmedBalanceSat = unconfirmedBalanceSat
        self.txCount = txCount
        self.unconfirmedTxCount = unconfirmedTxCount
        self.tokens = tokens
        self.transactions = transactions
        self.facts = facts
    }

    /// Whether this is the last page.
    public var isLastPage: Bool { totalPages >= 0 ? page >= totalPages : transactions.isEmpty }
}

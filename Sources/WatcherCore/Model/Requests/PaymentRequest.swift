import Foundation

/// One payment request ("is order 1042 paid?"): a fresh receive address of a followed wallet, the amount due,
/// its deadlines, the payments seen to the address, and one status with flags (`docs/requests.md`).
public struct PaymentRequest: Sendable, Hashable, Codable {
    /// The status. Transitions: `open ⇄ partial → paid → settled ⇄ reverted`; `paid → partial/open` when a
    /// replacement removes funding; `open/partial → expired → late → settled` (by rule); `paid → invalid`;
    /// `mark settled|invalid` from any status.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        case open, partial, paid, settled, expired, late, invalid, reverted, cancelled
    }

    /// The fiat amount a request was created for, and the quote that turned it into sat.
    public struct FiatAmount: Sendable, Hashable, Codable {
        /// The amount, e.g. `25.00`.
        public var amount: Decimal
        /// The currency code, e.g. `EUR`.
        public var currency: String
        /// The price of one bitcoin in that currency used.
        public var rate: Decimal
        /// Where the rate came from: the price provider's id, or `median of a, b, c` under `rate.sources`.
        public var source: String
        /// When the rate was quoted (the oldest of the quotes a median took).
        public var quotedAt: Date
        /// The sources' own quotes a median was taken of (`rate.sources`); `nil` for one provider's price.
        public var quotes: [PriceQuote]?

        /// Creates an amount.
        public init(
            amount: Decimal,
            currency: String,
            rate: Decimal,
            source: String,
            quotedAt: Date,
            quotes: [PriceQuote]? = nil
        ) {
            self.amount = amount
            self.currency = currency
            self.rate = rate
            self.source = source
            self.quotedAt = quotedAt
            self.quotes = quotes
        }

        /// The one quote the rate is (for a median, the median with its sources' names).
        public var quote: PriceQuote { PriceQuote(currency: currency, price: rate, time: quotedAt, provider: source) }
    }

    /// The id, `req_` and 24 hex digits derived from the chain, the wallet and the receive index.
    public var id: String
    /// The chain.
    public var chain: String
    /// The wallet (its watch id).
    public var wallet: String
    /// The receive index handed out.
    public var index: Int
    /// The address.
    public var address: String
    /// Names the payee or the order in the URI.
    public var label: String?
    /// The merchant's order id: creating again with it returns this request.
    public var orderId: String?
    /// The amount due, in sat.
    public var dueSat: Int64
    /// The underpayment accepted, in sat.
    public var toleranceSat: Int64
    /// The fiat amount and its quote, for a fiat request.
    public var fiat: FiatAmount?
    /// When it was created.
    public var createdAt: Date
    /// When it stops being open for payment.
    public var expiresAt: Date
    /// When a paid request that has not settled becomes `invalid`.
    public var settleBy: Date
    /// The terms it was created under.
    public var terms: RequestTerms
    /// The status.
    public var status: Status
    /// Whether it was made whole only after expiry.
    public var late: Bool
    /// Whether its status was set by hand (`requests mark`).
    public var marked: Bool
    /// The note given with a mark or a cancel.
    public var note: String?
    /// The payments seen to its address, in the order first seen.
    public var payments: [RequestPayment]
    /// The rule that settled it (`confirmations>=1`, `zeroConf`, `late.accept`, `marked`), while settled.
    public var policy: String?
    /// Counts status changes: it tells apart the events of a status reached twice (settled, reverted, settled).
    public var revision: Int

    /// Creates an open request with no payment.
    public init(
        id: String,
        chain: String,
        wallet: String,
        index: Int,
        address: String,
        dueSat: Int64,
        terms: RequestTerms,
        createdAt: Date,
        label: String? = nil,
        orderId: String? = nil,
        fiat: FiatAmount? = nil
    ) {
        self.id = id
        self.chain = chain
        self.wallet = wallet
        self.index = index
        self.address = address
        self.label = label
        self.orderId = orderId
        self.dueSat = dueSat
        self.toleranceSat = terms.tolerance(dueSat: dueSat)
        self.fiat = fiat
        self.createdAt = createdAt
        self.expiresAt = createdAt.addingTimeInterval(TimeInterval(terms.expiresSeconds))
        self.settleBy = expiresAt.addingTimeInterval(TimeInterval(terms.settleAfterSeconds))
        self.terms = terms
        self.status = .open
        self.late = false
        self.marked = false
        self.payments = []
        self.revision = 0
    }

    /// The sum of the payments that count.
    public var paidSat: Int64 { payments.filter { $0.state == .counted }.reduce(0) { $0 + $1.sat } }

    /// What was paid above the amount due.
    public var overpaidSat: Int64 { max(0, paidSat - dueSat) }

    /// Whether more than the amount due was paid.
    public var overpaid: Bool { overpaidSat > 0 }

    /// Under `agree`, the providers that held the confirmations of the counted payments.
    public var verifiedBy: [String] {
        Array(Set(payments.filter { $0.state == .counted }.flatMap { $0.verifiedBy ?? [] })).sorted()
    }
}

/// One payment to a request's address.
public struct RequestPayment: Sendable, Hashable, Codable {
    /// Whether it counts towards the request.
    public enum State: String, Sendable, Hashable, Codable {
        /// It pays the request.
        case counted
        /// Another transaction spending the same outputs took its place (`replacedBy`), or it left the mempool.
        case replaced
    }

    /// The txid.
    public var txid: String
    /// What it paid to the address, in sat.
    public var sat: Int64
    /// The confirming block's height, `nil` while unconfirmed.
    public var blockHeight: Int?
    /// The confirming block's hash.
    public var blockHash: String?
    /// When the engine first saw it.
    public var firstSeenAt: Date
    /// Whether it counts.
    public var state: State
    /// The transaction that replaced it, when known.
    public var replacedBy: String?
    /// The facts a zero-conf policy reads, as the provider gave them.
    public var facts: TxFacts?
    /// The outputs its inputs spend, to name its replacement.
    public var spends: [TxOutpoint]?
    /// Under `agree`, the providers that held its confirmation.
    public var verifiedBy: [String]?
    /// Where the watch asks for it (`zeroConf.minSeenBy`, or `agree`), the providers that reported it while it was
    /// unconfirmed, in their mempool or a block. Absent where nobody asked, and from records stored before.
    public var seenBy: [String]?
    /// Under `zeroConf.minFeeRate: "nextBlock"`, the next-block fee rate the providers estimated when it was first
    /// judged unconfirmed: the rate it must reach to settle at zero confirmations.
    public var nextBlockFee: FeeEstimate?

    /// Creates a payment.
    public init(
        txid: String,
        sat: Int64,
        blockHeight: Int?,
        blockHash: String?,
        firstSeenAt: Date,
        facts: TxFacts? = nil,
        spends: [TxOutpoint]? = nil
    ) {
        self.txid = txid
        self.sat = sat
        self.blockHeight = blockHeight
        self.blockHash = blockHash
        self.firstSeenAt = firstSeenAt
        self.state = .counted
        self.facts = facts
        self.spends = spends
    }

    /// Confirmations at tip height `tip`: 0 while unconfirmed.
    public func confirmations(tip: Int?) -> Int {
        guard let blockHeight, let tip, tip >= blockHeight else { return 0 }
        return tip - blockHeight + 1
    }
}

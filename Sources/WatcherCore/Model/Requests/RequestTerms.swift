import Foundation

/// The rules a wallet's payment requests follow: the `requests` block of a `wallet` watch
/// (`docs/requests.md`). Each request keeps a copy of the terms it was created under, so a later config change
/// does not move a request's goalposts.
public struct RequestTerms: Sendable, Hashable, Codable {
    /// When an unconfirmed payment is enough to settle: every condition must hold, on facts the provider gave
    /// (a fact the provider could not give fails its condition).
    public struct ZeroConf: Sendable, Hashable, Codable {
        /// The largest request (in sat due) settled at zero confirmations.
        public var maxSat: Int64
        /// Whether a payment that signals replace-by-fee (BIP125) may settle unconfirmed.
        public var allowRbf: Bool
        /// The most inputs spending unconfirmed outputs.
        public var maxUnconfirmedInputs: Int
        /// The lowest fee rate in sat/vB, when set.
        public var minFeeRate: Decimal?
        /// `minFeeRate: "nextBlock"`: the payment's fee rate must reach the next-block fee rate estimated when it
        /// was first seen (``RequestPayment/nextBlockFee``).
        public var minFeeRateNextBlock: Bool?
        /// The fewest of the watch's providers that must report the payment (in their mempool or a block), when set.
        public var minSeenBy: Int?

        /// Creates a policy.
        public init(
            maxSat: Int64,
            allowRbf: Bool = false,
            maxUnconfirmedInputs: Int = 0,
            minFeeRate: Decimal? = nil,
            minFeeRateNextBlock: Bool? = nil,
            minSeenBy: Int? = nil
        ) {
            self.maxSat = maxSat
            self.allowRbf = allowRbf
            self.maxUnconfirmedInputs = maxUnconfirmedInputs
            self.minFeeRate = minFeeRate
            self.minFeeRateNextBlock = minFeeRateNextBlock
            self.minSeenBy = minSeenBy
        }
    }

    /// Payments that make a request whole only after it expired.
    public struct Late: Sendable, Hashable, Codable {
        /// Whether such a request settles by rule (else it stays `late` until marked).
        public var accept: Bool
        /// How long after expiry a payment may arrive and still be accepted, in seconds.
        public var withinSeconds: Int
        /// For a fiat request, the most the price may have moved since the quote, in percent.
        public var maxRateDriftPercent: Decimal

        /// Creates a rule.
        public init(accept: Bool = false, withinSeconds: Int = 86_400, maxRateDriftPercent: Decimal = 2) {
            self.accept = accept
            self.withinSeconds = withinSeconds
            self.maxRateDriftPercent = maxRateDriftPercent
        }
    }

    /// How long a request is open for payment, in seconds (default 15 minutes).
    public var expiresSeconds: Int
    /// How long after expiry a paid request may take to settle before it is `invalid`, in seconds (default 24 h).
    public var settleAfterSeconds: Int
    /// Confirmations, counted from the tip, that settle a payment.
    public var confirmations: Int
    /// Underpayment accepted, in percent of the amount due.
    public var tolerancePercent: Decimal
    /// Underpayment accepted, in sat (the larger of the two applies).
    public var toleranceSat: Int64
    /// Unconfirmed settlement, when allowed.
    public var zeroConf: ZeroConf?
    /// Late payments.
    public var late: Late
    /// The most seconds a price quote may be old for a fiat request.
    public var maxRateAgeSeconds: Int
    /// The price providers whose median quotes a fiat request (`rate.sources`); `nil` for the newest stored price.
    public var rateSources: [String]?
    /// How many of ``rateSources`` must have a quote no older than ``maxRateAgeSeconds`` (`rate.agree`; default
    /// a majority of them).
    public var rateAgree: Int?
    /// Consecutive unpaid request addresses past which `check` and the log warn (what other wallets scan).
    public var gapWarn: Int

    /// Creates terms; the defaults are the documented ones.
    public init(
        expiresSeconds: Int = 900,
        settleAfterSeconds: Int = 86_400,
        confirmations: Int = 1,
        tolerancePercent: Decimal = 0,
        toleranceSat: Int64 = 0,
        zeroConf: ZeroConf? = nil,
        late: Late = Late(),
        maxRateAgeSeconds: Int = 600,
        rateSources: [String]? = nil,
        rateAgree: Int? = nil,
        gapWarn: Int = 20
    ) {
        self.expiresSeconds = expiresSeconds
        self.settleAfterSeconds = settleAfterSeconds
        self.confirmations = confirmations
        self.tolerancePercent = tolerancePercent
        self.toleranceSat = toleranceSat
        self.zeroConf = zeroConf
        self.late = late
        self.maxRateAgeSeconds = maxRateAgeSeconds
        self.rateSources = rateSources
        self.rateAgree = rateAgree
        self.gapWarn = gapWarn
    }

    /// The underpayment accepted on `dueSat`: the larger of the sat tolerance and the percentage (rounded down).
    public func tolerance(dueSat: Int64) -> Int64 {
        var scaled = Decimal(dueSat) * tolerancePercent / 100
        var floored = Decimal()
        NSDecimalRound(&floored, &scaled, 0, .down)
        let percent = NSDecimalNumber(decimal: floored).int64Value
        return min(dueSat, max(toleranceSat, percent))
    }
}

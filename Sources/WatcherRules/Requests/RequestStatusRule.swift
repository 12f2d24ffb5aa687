import Foundation
import WatcherCore

/// A request's status from its payments, the tip and the time (`docs/requests.md` has the table).
///
/// - Enough paid is `paidSat ≥ dueSat − toleranceSat`, over the payments that count.
/// - It settles when the payments that make it enough have `confirmations` counted from the tip, or pass the
///   zero-conf policy while unconfirmed. Under `agree: k` the address job records a confirmation only once k
///   providers report it, so a confirmation one provider claims alone settles nothing.
/// - Made enough only after expiry, it is `late`, and settles only where `late.accept` allows (within the window,
///   and for a fiat request with the price moved at most `maxRateDriftPercent` since the quote).
/// - Once settled, losing that (a reorg, a replacement) is `reverted`, and it settles again when the rule holds
///   again. `cancelled`, `invalid` and a marked status stay as they are.
public enum RequestStatusRule {
    /// A status, whether it was made whole after expiry, and the rule that settled it.
    public struct Verdict: Sendable, Hashable {
        /// The status.
        public var status: PaymentRequest.Status
        /// The `late` flag.
        public var late: Bool
        /// The rule that settled it, while settled.
        public var policy: String?
    }

    /// The verdict for `request` at tip height `tipHeight` and `now`.
    public static func evaluate(_ request: PaymentRequest, tipHeight: Int?, rateNow: Decimal?, now: Date) -> Verdict {
        if request.marked || request.status == .cancelled || request.status == .invalid {
            return Verdict(status: request.status, late: request.late, policy: request.policy)
        }
        let counted = request.payments.filter { $0.state == .counted }.sorted { $0.firstSeenAt < $1.firstSeenAt }
        let need = request.dueSat - request.toleranceSat
        let wasSettled = request.status == .settled || request.status == .reverted
        var running: Int64 = 0
        var enoughAt: Date?
        for payment in counted {
            running += payment.sat
            if running >= need, enoughAt == nil { enoughAt = payment.firstSeenAt }
        }
        guard let enoughAt else {
            if wasSettled { return Verdict(status: .reverted, late: false, policy: nil) }
            if now >= request.expiresAt { return Verdict(status: .expired, late: false, policy: nil) }
            return Verdict(status: running > 0 ? .partial : .open, late: false, policy: nil)
        }
        let late = enoughAt >= request.expiresAt
        let rule = settlingRule(request, counted: counted, need: need, tipHeight: tipHeight)
        if let rule, !late || lateAccepted(request, enoughAt: enoughAt, rateNow: rateNow) {
            return Verdict(status: .settled, late: late, policy: late ? "late.accept, \(rule)" : rule)
        }
        if wasSettled { return Verdict(status: .reverted, late: late, policy: nil) }
        if late { return Verdict(status: .late, late: true, policy: nil) }
        if now >= request.settleBy { return Verdict(status: .invalid, late: false, policy: nil) }
        return Verdict(status: .paid, late: false, policy: nil)
    }

    /// The rule under which the counted payments settle: enough of them confirmed, or the unconfirmed rest
    /// passing the zero-conf policy; `nil` when none holds.
    static func settlingRule(_ request: PaymentRequest, counted: [RequestPayment], need: Int64, tipHeight: Int?)
        -> String?
    {
        let required = max(1, request.terms.confirmations)
        let confirmed = counted.filter { $0.confirmations(tip: tipHeight) >= required }
        if confirmed.reduce(0, { $0 + $1.sat }) >= need { return "confirmations>=\(required)" }
        guard let policy = request.terms.zeroConf, request.dueSat <= policy.maxSat else { return nil }
        let unconfirmed = counted.filter { $0.confirmations(tip: tipHeight) < required }
        guard unconfirmed.allSatisfy({ passes($0, policy) }) else { return nil }
        return "zeroConf"
    }

    /// Whether an unconfirmed payment passes the zero-conf policy: every condition on a fact the provider gave.
    public static func passes(_ payment: RequestPayment, _ policy: RequestTerms.ZeroConf) -> Bool {
        guard let facts = payment.facts else { return false }
        if !policy.allowRbf {
            guard let rbf = facts.signalsRBF, !rbf else { return false }
        }
        guard let inputs = facts.unconfirmedInputs, inputs <= policy.maxUnconfirmedInputs else { return false }
        if let minimum = policy.minFeeRate {
            guard let fee = facts.feeSat, let vsize = facts.vsize, vsize > 0,
                Decimal(fee) / Decimal(vsize) >= minimum
            else { return false }
        }
        if policy.minFeeRateNextBlock == true {
            guard let fee = facts.feeSat, let vsize = facts.vsize, vsize > 0, let next = payment.nextBlockFee,
                Decimal(fee) / Decimal(vsize) >= next.satPerVB
            else { return false }
        }
        return seenEnough(payment, policy)
    }

    /// Whether enough providers reported the payment for `minSeenBy` (always, without it).
    public static func seenEnough(_ payment: RequestPayment, _ policy: RequestTerms.ZeroConf) -> Bool {
        guard let minimum = policy.minSeenBy, minimum > 1 else { return true }
        return Set(payment.seenBy ?? []).count >= minimum
    }

    /// Whether `request` is paid and waits on something other than its address to settle unconfirmed: another
    /// provider to report a payment (`minSeenBy`), or a next-block fee estimate to hold one to (`minFeeRate:
    /// "nextBlock"`, none stored when it was first seen). Its status may change with no event of its address, so
    /// the request job looks again each round.
    public static func waitsOnProviders(_ request: PaymentRequest) -> Bool {
        guard request.status == .paid, let policy = request.terms.zeroConf else { return false }
        let unconfirmed = request.payments.filter { $0.state == .counted && $0.blockHeight == nil }
        if (policy.minSeenBy ?? 1) > 1, unconfirmed.contains(where: { !seenEnough($0, policy) }) { return true }
        return policy.minFeeRateNextBlock == true && unconfirmed.contains { $0.nextBlockFee == nil }
    }

    /// Whether a late request settles by rule: `late.accept`, within the window after expiry, and for a fiat
    /// request a price now that moved at most `maxRateDriftPercent` from the quote.
    static func lateAccepted(_ request: PaymentRequest, enoughAt: Date, rateNow: Decimal?) -> Bool {
        let rule = request.terms.late
        guard rule.accept, enoughAt <= request.expiresAt.addingTimeInterval(TimeInterval(rule.withinSeconds)) else {
            return false
        }
        guard let fiat = request.fiat else { return true }
        guard let rateNow, fiat.rate > 0 else { return false }
        let drift = abs(rateNow - fiat.rate) / fiat.rate * 100
        return drift <= rule.maxRateDriftPercent
    }
}

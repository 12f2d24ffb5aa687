import Foundation
import WatcherCore
import WatcherJSON

/// The decisions of a payment request: which payments to its address count, and its status, from the address's
/// followed transactions, the tip and the time. Pure: `reduce(request, facts, now) -> (request, events)`; the
/// engine's request job reads the facts from the store and commits the request with its events in one write
/// transaction, so a restart neither loses nor repeats one (`docs/requests.md`).
public enum RequestReducer {
    /// What the store knows of a request's address.
    public struct Facts: Sendable {
        /// The tip's height, `nil` before the first block.
        public var tipHeight: Int?
        /// The address's followed transactions, `nil` while the engine has not observed the address yet (then
        /// nothing is taken as gone).
        public var txs: [AddressState.TrackedTx]?
        /// For a fiat request, the price of one bitcoin in its currency now (the late-payment drift rule).
        public var rateNow: Decimal?
        /// What replaced transactions that left the address, where a provider named it.
        public var replacedBy: [String: String]
        /// The time of the blocks the address's confirmed transactions are in, where stored: a payment first seen
        /// already confirmed (the daemon was down) was made no later than its block, which may be before expiry.
        public var blockTimes: [Int: Date] = [:]
        /// The chain's next-block fee estimate, when one no older than ``FeeEstimate/maxAgeSeconds`` is stored: an
        /// unconfirmed payment of a request under `zeroConf.minFeeRate: "nextBlock"` is held to the first it meets.
        public var nextBlockFee: FeeEstimate?

        /// Creates facts.
        public init(
            tipHeight: Int?,
            txs: [AddressState.TrackedTx]?,
            rateNow: Decimal? = nil,
            replacedBy: [String: String] = [:]
        ) {
            self.tipHeight = tipHeight
            self.txs = txs
            self.rateNow = rateNow
            self.replacedBy = replacedBy
        }

        /// The facts of an address's stored state.
        public init(tipHeight: Int?, state: AddressState?, rateNow: Decimal? = nil) {
            self.init(
                tipHeight: tipHeight,
                txs: state.map { Array($0.txs.values) },
                rateNow: rateNow,
                replacedBy: Dictionary(
                    (state?.replacements ?? []).map { ($0.txid, $0.replacedBy) },
                    uniquingKeysWith: { _, last in last }
                )
            )
        }
    }

    /// Brings `request` up to date with `facts` at `now`. Every event carries the request as it stands after the
    /// whole step (its status, `paidSat`, its payments).
    public static func reduce(_ request: PaymentRequest, facts: Facts, now: Date, events builder: EventBuilder)
        -> (PaymentRequest, [NewEvent])
    {
        var request = request
        var pending: [RequestEvents.Pending] = []
        if let txs = facts.txs {
            pending += count(txs, into: &request, now: now, blockTimes: facts.blockTimes)
            holdToNextBlock(&request, facts.nextBlockFee)
            pending += replaced(txs, named: facts.replacedBy, in: &request)
        }
        let verdict = RequestStatusRule.evaluate(request, tipHeight: facts.tipHeight, rateNow: facts.rateNow, now: now)
        request.policy = verdict.policy
        if verdict.status != request.status || verdict.late != request.late {
            request.status = verdict.status
            request.late = verdict.late
            request.revision += 1
            if let kind = RequestEvents.Kind(status: verdict.status) {
                pending.append(.init(kind: kind, fact: [verdict.status.rawValue, "\(request.revision)"]))
            }
        }
        let events = RequestEvents.make(pending, request, tipHeight: facts.tipHeight, builder: builder)
        return (request, events)
    }

    /// Adds the address's new incoming transactions as payments and follows the known ones into their blocks.
    static func count(
        _ txs: [AddressState.TrackedTx],
        into request: inout PaymentRequest,
        now: Date,
        blockTimes: [Int: Date] = [:]
    ) -> [RequestEvents.Pending] {
        var pending: [RequestEvents.Pending] = []
        for tx in txs.sorted(by: { ($0.blockHeight ?? .max, $0.txid) < ($1.blockHeight ?? .max, $1.txid) })
        where tx.deltaSat > 0 {
            if let index = request.payments.firstIndex(where: { $0.txid == tx.txid }) {
                request.payments[index].blockHeight = tx.blockHeight
                request.payments[index].blockHash = tx.blockHash
                request.payments[index].spends = request.payments[index].spends ?? tx.spends
                // While unconfirmed, a fact a later read learnt (the count of unconfirmed inputs a push could not
                // tell) is taken; a fact once known is kept.
                request.payments[index].facts =
                    request.payments[index].facts.map { tx.blockHeight == nil ? $0.filling(from: tx.facts) : $0 }
                    ?? tx.facts
                request.payments[index].verifiedBy = tx.blockHeight == nil ? nil : tx.verifiedBy
                request.payments[index].seenBy = tx.seenBy ?? request.payments[index].seenBy
                if request.payments[index].state == .replaced {
                    request.payments[index].state = .counted
                    request.payments[index].replacedBy = nil
                }
                continue
            }
            var payment = RequestPayment(
                txid: tx.txid,
                sat: tx.deltaSat,
                blockHeight: tx.blockHeight,
                blockHash: tx.blockHash,
                // First seen in a block: made no later than the block (from the provider's evidence, not the
                // moment this daemon, perhaps just restarted, looked).
                firstSeenAt: min(now, tx.blockHeight.flatMap { blockTimes[$0] } ?? now),
                facts: tx.facts,
                spends: tx.spends
            )
            payment.verifiedBy = tx.verifiedBy
            payment.seenBy = tx.seenBy
            request.payments.append(payment)
            pending.append(.init(kind: .paymentSeen, fact: [tx.txid], payment: tx.txid))
        }
        return pending
    }

    /// Under `zeroConf.minFeeRate: "nextBlock"`, gives each unconfirmed payment that has none the estimate `fee`:
    /// the rate it must reach to settle unconfirmed, fixed when it is first judged (a later rise in fees does not
    /// revert a settled request).
    static func holdToNextBlock(_ request: inout PaymentRequest, _ fee: FeeEstimate?) {
        guard let fee, request.terms.zeroConf?.minFeeRateNextBlock == true else { return }
        for index in request.payments.indices
        where request.payments[index].blockHeight == nil && request.payments[index].nextBlockFee == nil {
            request.payments[index].nextBlockFee = fee
        }
    }

    /// Payments that left the address's followed transactions: replaced (named when another followed transaction
    /// spends one of the same outputs) or dropped. They stop counting.
    static func replaced(
        _ txs: [AddressState.TrackedTx],
        named: [String: String],
        in request: inout PaymentRequest
    ) -> [RequestEvents.Pending] {
        let present = Set(txs.map(\.txid))
        var pending: [RequestEvents.Pending] = []
        for index in request.payments.indices
        where request.payments[index].state == .counted && !present.contains(request.payments[index].txid) {
            let gone = request.payments[index]
            let spent = Set(gone.spends ?? [])
            let spender = txs.first { tx in
                tx.txid != gone.txid && (tx.spends ?? []).contains { spent.contains($0) }
            }
            let replacedBy = spender?.txid ?? named[gone.txid]
            let replacement = replacedBy.flatMap { txid in txs.first { $0.txid == txid } }
            request.payments[index].state = .replaced
            request.payments[index].replacedBy = replacedBy
            request.revision += 1
            pending.append(
                .init(
                    kind: .paymentReplaced,
                    fact: [gone.txid, "\(request.revision)"],
                    payment: gone.txid,
                    extra: [
                        .init("replacedBy", .optional(replacedBy)),
                        .init("stillPays", .bool((replacement?.deltaSat ?? 0) > 0)),
                    ]
                )
            )
        }
        return pending
    }
}

import Foundation
import WatcherCore
import WatcherJSON

/// The `request.*` events: self-contained (each carries the request whole: `dueSat`, `paidSat`, its payments,
/// its status), with ids from the fact: the request and the txid for a payment seen, the request, the status and
/// the request's revision for a status change, so a status reached twice (settled, reverted, settled) is two
/// facts, and the same step taken again after a restart is the same one.
public enum RequestEvents {
    /// The event types.
    public enum Kind: String, Sendable, CaseIterable {
        case created = "request.created"
        case paymentSeen = "request.payment.seen"
        case paymentReplaced = "request.payment.replaced"
        case partial = "request.partial"
        case paid = "request.paid"
        case settled = "request.settled"
        case expired = "request.expired"
        case late = "request.late"
        case invalid = "request.invalid"
        case reverted = "request.reverted"
        case marked = "request.marked"
        case cancelled = "request.cancelled"

        /// The event announcing a move to `status`; `nil` for a fall back to `open` (the
        /// `request.payment.replaced` that caused it carries the status).
        init?(status: PaymentRequest.Status) {
            switch status {
            case .open: return nil
            case .partial: self = .partial
            case .paid: self = .paid
            case .settled: self = .settled
            case .expired: self = .expired
            case .late: self = .late
            case .invalid: self = .invalid
            case .reverted: self = .reverted
            case .cancelled: self = .cancelled
            }
        }
    }

    /// An event to build once the step is done.
    struct Pending {
        var kind: Kind
        var fact: [String]
        var payment: String?
        var extra: [JSONValue.Member] = []
    }

    static func make(_ pending: Pending, _ request: PaymentRequest, tipHeight: Int?, builder: EventBuilder)
        -> NewEvent
    {
        make([pending], request, tipHeight: tipHeight, builder: builder)[0]
    }

    /// The events of one step, the request's JSON built once for all of them.
    static func make(_ pendings: [Pending], _ request: PaymentRequest, tipHeight: Int?, builder: EventBuilder)
        -> [NewEvent]
    {
        guard !pendings.isEmpty else { return [] }
        let base = json(request, tipHeight: tipHeight)
        return pendings.map { make($0, request, base: base, tipHeight: tipHeight, builder: builder) }
    }

    static func make(
        _ pending: Pending,
        _ request: PaymentRequest,
        base: [JSONValue.Member],
        tipHeight: Int?,
        builder: EventBuilder
    ) -> NewEvent {
        var data = base
        if let txid = pending.payment, let payment = request.payments.last(where: { $0.txid == txid }) {
            data.append(.init("payment", json(payment, tipHeight: tipHeight)))
        }
        data += pending.extra
        return builder.make(
            type: pending.kind.rawValue,
            fact: [request.id] + pending.fact,
            source: request.wallet,
            subject: request.id,
            data: data
        )
    }

    /// `request.created`.
    public static func created(_ request: PaymentRequest, builder: EventBuilder) -> NewEvent {
        make(.init(kind: .created, fact: []), request, tipHeight: nil, builder: builder)
    }

    /// A request as JSON: what its events carry, and what `requests show --json` and the API answer.
    public static func json(_ request: PaymentRequest, tipHeight: Int?) -> [JSONValue.Member] {
        [
            .init("id", .string(request.id)),
            .init("chain", .string(request.chain)),
            .init("wallet", .string(request.wallet)),
            .init("index", .integer(request.index)),
            .init("address", .string(request.address)),
            .init("uri", .string(RequestURI.make(request))),
            .init("label", .optional(request.label)),
            .init("orderId", .optional(request.orderId)),
            .init("status", .string(request.status.rawValue)),
            .init("late", .bool(request.late)),
            .init("overpaid", .bool(request.overpaid)),
            .init("marked", .bool(request.marked)),
            .init("amount", fiatJSON(request.fiat)),
            .init("dueSat", .integer(request.dueSat)),
            .init("paidSat", .integer(request.paidSat)),
            .init("toleranceSat", .integer(request.toleranceSat)),
            .init("overpaidSat", .integer(request.overpaidSat)),
            .init("createdAt", .string(ISO8601Time.stringWithMilliseconds(request.createdAt))),
            .init("expiresAt", .string(ISO8601Time.stringWithMilliseconds(request.expiresAt))),
            .init("settleBy", .string(ISO8601Time.stringWithMilliseconds(request.settleBy))),
            .init("payments", .array(request.payments.map { json($0, tipHeight: tipHeight) })),
            .init("policy", .optional(request.policy)),
            .init("verifiedBy", .array(request.verifiedBy.map(JSONValue.string))),
            .init("confirmationsRequired", .integer(request.terms.confirmations)),
            .init("note", .optional(request.note)),
        ]
    }

    /// One payment, with the zero-conf facts (`null` where the provider could not tell).
    public static func json(_ payment: RequestPayment, tipHeight: Int?) -> JSONValue {
        let facts = payment.facts
        return .object([
            .init("txid", .string(payment.txid)),
            .init("sat", .integer(payment.sat)),
            .init("state", .string(payment.state.rawValue)),
            .init("confirmations", .integer(payment.confirmations(tip: tipHeight))),
            .init("blockHeight", .integer(payment.blockHeight)),
            .init("blockHash", .optional(payment.blockHash)),
            .init("firstSeenAt", .string(ISO8601Time.stringWithMilliseconds(payment.firstSeenAt))),
            .init("replacedBy", .optional(payment.replacedBy)),
            .init("verifiedBy", payment.verifiedBy.map { .array($0.map(JSONValue.string)) } ?? .null),
            .init("seenBy", payment.seenBy.map { .array($0.map(JSONValue.string)) } ?? .null),
            .init("feeRate", .optional(facts?.feeRate)),
            .init("nextBlockFeeRate", .optional(payment.nextBlockFee.map { "\($0.satPerVB)" })),
            .init("feeSat", .integer(facts?.feeSat)),
            .init("vsize", .integer(facts?.vsize)),
            .init("rbf", facts?.signalsRBF.map(JSONValue.bool) ?? .null),
            .init("unconfirmedInputs", .integer(facts?.unconfirmedInputs)),
        ])
    }

    static func fiatJSON(_ fiat: PaymentRequest.FiatAmount?) -> JSONValue {
        guard let fiat else { return .null }
        return .object([
            .init("fiat", .string("\(fiat.amount)")),
            .init("currency", .string(fiat.currency)),
            .init("rate", .string("\(fiat.rate)")),
            .init("rateSource", .string(fiat.source)),
            .init("quotedAt", .string(ISO8601Time.stringWithMilliseconds(fiat.quotedAt))),
            .init("quotes", .array((fiat.quotes ?? [fiat.quote]).map(quoteJSON))),
        ])
    }

    /// One source's quote behind a request's rate.
    static func quoteJSON(_ quote: PriceQuote) -> JSONValue {
        .object([
            .init("provider", .string(quote.provider)),
            .init("rate", .string("\(quote.price)")),
            .init("quotedAt", .string(ISO8601Time.stringWithMilliseconds(quote.time))),
        ])
    }
}

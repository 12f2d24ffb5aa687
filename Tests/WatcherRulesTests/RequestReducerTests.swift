import Foundation
import Testing
import WatcherCore
import WatcherJSON

@testable import WatcherRules

/// A payment request's status and events, on values alone: every transition of `docs/requests.md`.
struct RequestReducerTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let builder = EventBuilder(now: { start })

    /// A request for `due` sat created at `start` (expiry 15 min, settle by + 24 h, 1 confirmation).
    static func request(due: Int64 = 40_000, terms: RequestTerms = RequestTerms()) -> PaymentRequest {
        PaymentRequest(
            id: PaymentRequest.id(chain: "btc", wallet: "shop", address: "bc1qshop3"),
            chain: "btc",
            wallet: "shop",
            index: 3,
            address: "bc1qshop3",
            dueSat: due,
            terms: terms,
            createdAt: start,
            label: "Shop",
            orderId: "1042"
        )
    }

    static func tx(_ txid: String, _ sat: Int64, height: Int? = nil, spends: [TxOutpoint]? = nil)
        -> AddressState.TrackedTx
    {
        AddressState.TrackedTx(
            txid: txid,
            blockHeight: height,
            blockHash: height.map { "b\($0)" },
            deltaSat: sat,
            spends: spends
        )
    }

    static func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    /// One step; returns the request and its events' types.
    static func step(
        _ request: PaymentRequest,
        _ txs: [AddressState.TrackedTx]?,
        tip: Int? = 100,
        at minutes: Double,
        rate: Decimal? = nil
    ) -> (PaymentRequest, [String], [NewEvent]) {
        let (next, events) = RequestReducer.reduce(
            request,
            facts: .init(tipHeight: tip, txs: txs, rateNow: rate),
            now: at(minutes),
            events: builder
        )
        return (next, events.map(\.type), events)
    }

    static func data(_ event: NewEvent) throws -> [String: JSONValue] {
        let envelope = try JSONValue.parse(event.body)
        guard case .object(let members)? = envelope["data"] else { throw CocoaError(.coderInvalidValue) }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func anExactPaymentIsPaidThenSettledAtOneConfirmation() throws {
        var (r, types, events) = Self.step(Self.request(), [Self.tx("a", 40_000)], at: 1)
        #expect(r.status == .paid)
        #expect(types == ["request.payment.seen", "request.paid"])
        let seen = try Self.data(events[0])
        #expect(seen["dueSat"] == .number("40000"))
        #expect(seen["paidSat"] == .number("40000"))
        #expect(seen["status"] == .string("paid"))
        (r, types, events) = Self.step(r, [Self.tx("a", 40_000, height: 101)], tip: 101, at: 5)
        #expect(r.status == .settled)
        #expect(r.policy == "confirmations>=1")
        #expect(types == ["request.settled"])
        #expect(try Self.data(events[0])["policy"] == .string("confirmations>=1"))
        // The same facts again: nothing new.
        (r, types, _) = Self.step(r, [Self.tx("a", 40_000, height: 101)], tip: 102, at: 6)
        #expect(types.isEmpty)
    }

    @Test func anUnderpaymentInsideTheToleranceIsPaidAndOutsideItIsPartial() {
        let terms = RequestTerms(tolerancePercent: 1, toleranceSat: 300)
        let inside = Self.step(Self.request(terms: terms), [Self.tx("a", 39_600)], at: 1).0
        #expect(inside.toleranceSat == 400)
        #expect(inside.status == .paid)
        let outside = Self.step(Self.request(terms: terms), [Self.tx("a", 39_599)], at: 1)
        #expect(outside.0.status == .partial)
        #expect(outside.1 == ["request.payment.seen", "request.partial"])
    }

    @Test func partialThenTopUpIsPaidThenSettled() {
        var (r, types, _) = Self.step(Self.request(), [Self.tx("a", 25_000)], at: 1)
        #expect(r.status == .partial)
        (r, types, _) = Self.step(r, [Self.tx("a", 25_000), Self.tx("b", 15_000)], at: 2)
        #expect((r.status, types) == (.paid, ["request.payment.seen", "request.paid"]))
        #expect(r.paidSat == 40_000)
        (r, types, _) = Self.step(r, [Self.tx("a", 25_000, height: 101), Self.tx("b", 15_000)], tip: 101, at: 3)
        #expect(r.status == .paid)  // 25,000 confirmed is not enough
        (r, types, _) = Self.step(
            r,
            [Self.tx("a", 25_000, height: 101), Self.tx("b", 15_000, height: 102)],
            tip: 102,
            at: 4
        )
        #expect((r.status, types) == (.settled, ["request.settled"]))
    }

    @Test func anOverpaymentIsFlagged() throws {
        let (r, _, events) = Self.step(Self.request(), [Self.tx("a", 50_000, height: 101)], tip: 101, at: 1)
        #expect(r.status == .settled)
        #expect(r.overpaid && r.overpaidSat == 10_000)
        #expect(try Self.data(events.last!)["overpaidSat"] == .number("10000"))
    }

    @Test func expiryWithNothingPaidThenALatePaymentAcceptedByRule() {
        var terms = RequestTerms()
        terms.late = .init(accept: true, withinSeconds: 3600)
        var (r, types, _) = Self.step(Self.request(terms: terms), [], at: 16)
        #expect((r.status, types) == (.expired, ["request.expired"]))
        (r, types, _) = Self.step(r, [Self.tx("a", 40_000)], at: 20)
        #expect((r.status, r.late, types) == (.late, true, ["request.payment.seen", "request.late"]))
        (r, types, _) = Self.step(r, [Self.tx("a", 40_000, height: 101)], tip: 101, at: 25)
        #expect((r.status, r.late, types) == (.settled, true, ["request.settled"]))
        #expect(r.policy == "late.accept, confirmations>=1")
    }

    @Test func aLatePaymentWithoutTheRuleStaysLate() {
        var (r, _, _) = Self.step(Self.request(), [], at: 16)
        (r, _, _) = Self.step(r, [Self.tx("a", 40_000, height: 101)], tip: 101, at: 20)
        #expect((r.status, r.late) == (.late, true))
    }

    @Test func aPaymentFirstSeenInABlockMinedBeforeExpiryIsNotLate() {
        // The daemon was down from minute 1 to 30; the payment's block is from minute 10, before the expiry (15).
        let paid = AddressState.TrackedTx(txid: "a", blockHeight: 101, blockHash: "b101", deltaSat: 40_000)
        var facts = RequestReducer.Facts(tipHeight: 101, txs: [paid])
        facts.blockTimes[101] = Self.at(10)
        let (onTime, _) = RequestReducer.reduce(Self.request(), facts: facts, now: Self.at(30), events: Self.builder)
        #expect((onTime.status, onTime.late) == (.settled, false))
        #expect(onTime.payments.first?.firstSeenAt == Self.at(10))
        facts.blockTimes[101] = Self.at(20)
        let (late, _) = RequestReducer.reduce(Self.request(), facts: facts, now: Self.at(30), events: Self.builder)
        #expect((late.status, late.late) == (.late, true))
    }

    @Test func aLatePaymentPastTheWindowOrRateDriftIsNotAccepted() {
        var terms = RequestTerms()
        terms.late = .init(accept: true, withinSeconds: 600, maxRateDriftPercent: 2)
        var past = Self.step(Self.request(terms: terms), [], at: 16).0
        past = Self.step(past, [Self.tx("a", 40_000, height: 101)], tip: 101, at: 30).0
        #expect(past.status == .late)
        var fiat = Self.request(terms: terms)
        fiat.fiat = .init(amount: 25, currency: "EUR", rate: 62_500, source: "coindesk", quotedAt: Self.start)
        let drifted = Self.step(fiat, [Self.tx("a", 40_000, height: 101)], tip: 101, at: 17, rate: 64_000).0
        #expect(drifted.status == .late)
        let steady = Self.step(fiat, [Self.tx("a", 40_000, height: 101)], tip: 101, at: 17, rate: 63_000).0
        #expect(steady.status == .settled)
    }

    @Test func aReplacementThatDropsThePaymentNamesItAndTheStatusFallsBack() throws {
        let outpoint = TxOutpoint(txid: String(repeating: "f", count: 64), vout: 0)
        var (r, _, _) = Self.step(Self.request(), [Self.tx("a", 40_000, spends: [outpoint])], at: 1)
        #expect(r.status == .paid)
        let (next, types, events) = Self.step(r, [Self.tx("c", -1_000, spends: [outpoint])], at: 2)
        r = next
        #expect(r.status == .open)
        #expect(types == ["request.payment.replaced"])
        let data = try Self.data(events[0])
        #expect(data["replacedBy"] == .string("c"))
        #expect(data["stillPays"] == .bool(false))
        #expect(data["paidSat"] == .number("0"))
        #expect(data["status"] == .string("open"))
    }

    @Test func aReplacementThatStillPaysKeepsTheRequestPaid() throws {
        let outpoint = TxOutpoint(txid: String(repeating: "e", count: 64), vout: 1)
        var (r, _, _) = Self.step(Self.request(), [Self.tx("a", 40_000, spends: [outpoint])], at: 1)
        let (next, types, events) = Self.step(r, [Self.tx("b", 40_000, spends: [outpoint])], at: 2)
        r = next
        #expect(types == ["request.payment.seen", "request.payment.replaced"])
        #expect(r.status == .paid)
        #expect(r.paidSat == 40_000)
        #expect(try Self.data(events[1])["stillPays"] == .bool(true))
    }

    @Test func aReorgAfterSettlementRevertsAndSettlesAgainWithNewIds() {
        var (r, _, first) = Self.step(Self.request(), [Self.tx("a", 40_000, height: 101)], tip: 101, at: 1)
        #expect(r.status == .settled)
        var types: [String]
        (r, types, _) = Self.step(r, [Self.tx("a", 40_000)], tip: 101, at: 2)
        #expect((r.status, types) == (.reverted, ["request.reverted"]))
        var again: [NewEvent]
        (r, types, again) = Self.step(r, [Self.tx("a", 40_000, height: 102)], tip: 102, at: 3)
        #expect((r.status, types) == (.settled, ["request.settled"]))
        #expect(Set(first.map(\.id)).isDisjoint(with: again.map(\.id)))
    }

    @Test func paidButNotSettledBySettleByIsInvalid() {
        var (r, _, _) = Self.step(Self.request(), [Self.tx("a", 40_000)], at: 1)
        var types: [String]
        (r, types, _) = Self.step(r, [Self.tx("a", 40_000)], at: 60 * 24 + 16)
        #expect((r.status, types) == (.invalid, ["request.invalid"]))
        (r, types, _) = Self.step(r, [Self.tx("a", 40_000, height: 101)], tip: 101, at: 60 * 24 + 20)
        #expect(r.status == .invalid)
        #expect(types.isEmpty)
    }

    @Test func aSecondPaymentAfterSettlementIsSeenAndTheRequestStaysSettled() {
        var (r, _, _) = Self.step(Self.request(), [Self.tx("a", 40_000, height: 101)], tip: 101, at: 1)
        var types: [String]
        (r, types, _) = Self.step(r, [Self.tx("a", 40_000, height: 101), Self.tx("b", 5_000)], tip: 101, at: 30)
        #expect((r.status, types) == (.settled, ["request.payment.seen"]))
        #expect(r.overpaidSat == 5_000)
    }

    @Test func zeroConfSettlesOnFactsAndNamesTheRule() {
        let policy = RequestTerms.ZeroConf(maxSat: 50_000, allowRbf: false, maxUnconfirmedInputs: 0, minFeeRate: 2)
        let terms = RequestTerms(zeroConf: policy)
        var good = Self.tx("a", 40_000)
        good.facts = TxFacts(feeSat: 500, vsize: 141, sequences: [0xffff_ffff], unconfirmedInputs: 0)
        let settled = Self.step(Self.request(terms: terms), [good], at: 1).0
        #expect((settled.status, settled.policy) == (.settled, "zeroConf"))
        var rbf = good
        rbf.facts?.sequences = [0xffff_fffd]
        #expect(Self.step(Self.request(terms: terms), [rbf], at: 1).0.status == .paid)
        var cheap = good
        cheap.facts?.feeSat = 141
        #expect(Self.step(Self.request(terms: terms), [cheap], at: 1).0.status == .paid)
        var unknown = good
        unknown.facts = nil
        #expect(Self.step(Self.request(terms: terms), [unknown], at: 1).0.status == .paid)
        #expect(Self.step(Self.request(due: 60_000, terms: terms), [good], at: 1).0.status == .partial)
    }

    @Test func minSeenByWaitsForEnoughProvidersToReportThePayment() {
        let policy = RequestTerms.ZeroConf(maxSat: 50_000, allowRbf: true, minSeenBy: 2)
        let terms = RequestTerms(zeroConf: policy)
        var one = Self.tx("a", 40_000)
        one.facts = TxFacts(feeSat: 500, vsize: 141, sequences: [0xffff_ffff], unconfirmedInputs: 0)
        one.seenBy = ["p1"]
        let waiting = Self.step(Self.request(terms: terms), [one], at: 1).0
        #expect((waiting.status, waiting.payments.first?.seenBy) == (.paid, ["p1"]))
        #expect(RequestStatusRule.waitsOnProviders(waiting), "the request job looks again each round")
        // Nobody asked (a single provider, or records from before): the fact is missing, the condition fails.
        var unasked = one
        unasked.seenBy = nil
        #expect(Self.step(Self.request(terms: terms), [unasked], at: 1).0.status == .paid)
        // A second provider reports it: settled on the facts, the payment naming both.
        var two = one
        two.seenBy = ["p1", "p2"]
        let settled = Self.step(waiting, [two], at: 2).0
        #expect((settled.status, settled.policy) == (.settled, "zeroConf"))
        #expect(settled.payments.first?.seenBy == ["p1", "p2"])
        #expect(!RequestStatusRule.waitsOnProviders(settled))
        // Confirmed, it settles by confirmations whoever reported it.
        let confirmed = Self.step(Self.request(terms: terms), [Self.tx("a", 40_000, height: 100)], at: 1).0
        #expect(confirmed.policy == "confirmations>=1")
    }

    @Test func anUnobservedAddressLosesNoPayment() {
        var (r, _, _) = Self.step(Self.request(), [Self.tx("a", 40_000)], at: 1)
        var types: [String]
        (r, types, _) = Self.step(r, nil, at: 2)
        #expect((r.status, r.paidSat, types) == (.paid, 40_000, []))
    }

    @Test func cancelAndMark() throws {
        let (cancelled, events) = try RequestActions.cancel(
            Self.request(),
            note: "customer left",
            builder: Self.builder
        )
        #expect(cancelled.status == .cancelled)
        #expect(events.map(\.type) == ["request.cancelled"])
        // Still followed: a payment is announced, the status stays.
        let (after, types, _) = Self.step(cancelled, [Self.tx("a", 40_000)], at: 1)
        #expect((after.status, types) == (.cancelled, ["request.payment.seen"]))
        // Cancelling again is a no-op, not a second event.
        #expect(try RequestActions.cancel(after, note: nil, builder: Self.builder).1.isEmpty)
        let paid = Self.step(Self.request(), [Self.tx("a", 30_000)], at: 1).0
        #expect(throws: RequestActions.Refusal.self) {
            try RequestActions.cancel(paid, note: nil, builder: Self.builder)
        }
        let (marked, markEvents) = try RequestActions.mark(
            paid,
            as: .settled,
            note: "paid the rest in cash",
            tipHeight: 100,
            builder: Self.builder
        )
        #expect((marked.status, marked.marked, marked.policy) == (.settled, true, "marked"))
        #expect(markEvents.map(\.type) == ["request.marked"])
        #expect(Self.step(marked, [], at: 2).0.status == .settled)
        #expect(throws: RequestActions.Refusal.self) {
            try RequestActions.mark(paid, as: .paid, note: nil, tipHeight: nil, builder: Self.builder)
        }
    }

    @Test func theURIAmountIsExactlyTheDue() {
        let request = Self.request(due: 40_827)
        #expect(RequestURI.make(request) == "bitcoin:bc1qshop3?amount=0.00040827&label=Shop&message=1042")
        #expect(RequestURI.amount(100_000_000) == "1")
        #expect(RequestURI.amount(1) == "0.00000001")
        #expect(
            RequestURI.make(address: "bc1q", dueSat: 1_000, label: "A & B", message: nil)
                == "bitcoin:bc1q?amount=0.00001&label=A%20%26%20B"
        )
        // The uppercase form: scheme and bech32 address in upper case, the query and a Base58 address as they are.
        #expect(
            RequestURI.uppercase("bitcoin:bc1qshop3?amount=0.00040827&label=Caf%C3%A9")
                == "BITCOIN:BC1QSHOP3?amount=0.00040827&label=Caf%C3%A9"
        )
        #expect(
            RequestURI.uppercase("bitcoin:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2?amount=1")
                == "BITCOIN:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2?amount=1"
        )
        #expect(RequestURI.uppercase("bitcoin:bcrt1qxyz") == "BITCOIN:BCRT1QXYZ")
    }

    @Test func fiatRoundsUpAndStaleRatesAreRefused() throws {
        let quote = PriceQuote(
            currency: "EUR",
            price: Decimal(string: "61234.50")!,
            time: Self.start,
            provider: "coindesk"
        )
        // 25 EUR / 61234.50 = 0.000408267… BTC → 40,827 sat (rounded up).
        #expect(
            try RequestQuote.sats(amount: 25, quote: quote, currency: "EUR", maxAgeSeconds: 600, now: Self.start)
                == 40_827
        )
        #expect(throws: RequestQuote.Refusal.self) {
            try RequestQuote.sats(amount: 25, quote: quote, currency: "EUR", maxAgeSeconds: 600, now: Self.at(11))
        }
        #expect(throws: RequestQuote.Refusal.self) {
            try RequestQuote.sats(amount: 25, quote: nil, currency: "EUR", maxAgeSeconds: 600, now: Self.start)
        }
    }
}

import Foundation
import Testing
import WatcherCore

@testable import WatcherRules

/// `zeroConf.minFeeRate: "nextBlock"` on values: an unconfirmed payment is held to the next-block fee estimate of
/// the step it was first judged in, which a later estimate does not move.
struct RequestNextBlockTests {
    typealias Base = RequestReducerTests

    static let terms = RequestTerms(zeroConf: .init(maxSat: 50_000, minFeeRateNextBlock: true))

    /// A payment of 40,000 sat paying 500 sat over 141 vB (3.55 sat/vB), final, no unconfirmed input.
    static var payment: AddressState.TrackedTx {
        var tx = Base.tx("a", 40_000)
        tx.facts = TxFacts(feeSat: 500, vsize: 141, sequences: [0xffff_ffff], unconfirmedInputs: 0)
        return tx
    }

    static func fee(_ rate: String) -> FeeEstimate {
        FeeEstimate(satPerVB: Decimal(string: rate)!, time: Base.start, provider: "bb")
    }

    static func step(_ request: PaymentRequest, _ txs: [AddressState.TrackedTx], fee: FeeEstimate?, at minutes: Double)
        -> PaymentRequest
    {
        var facts = RequestReducer.Facts(tipHeight: 100, txs: txs)
        facts.nextBlockFee = fee
        return RequestReducer.reduce(request, facts: facts, now: Base.at(minutes), events: Base.builder).0
    }

    @Test func aPaymentAtOrAboveTheEstimateSettlesAndBelowItWaitsForItsBlock() {
        let settled = Self.step(Base.request(terms: Self.terms), [Self.payment], fee: Self.fee("3.5"), at: 1)
        #expect((settled.status, settled.policy) == (.settled, "zeroConf"))
        #expect(settled.payments.first?.nextBlockFee == Self.fee("3.5"))
        let waiting = Self.step(Base.request(terms: Self.terms), [Self.payment], fee: Self.fee("3.6"), at: 1)
        #expect(waiting.status == .paid)
        #expect(!RequestStatusRule.waitsOnProviders(waiting), "judged: nothing to wait for but its block")
        // Fees fall later: the payment stays held to the estimate it was judged against.
        #expect(Self.step(waiting, [Self.payment], fee: Self.fee("1"), at: 2).status == .paid)
        // Its block settles it by confirmations.
        let confirmed = Self.step(waiting, [Base.tx("a", 40_000, height: 100)], fee: Self.fee("1"), at: 3)
        #expect(confirmed.policy == "confirmations>=1")
    }

    @Test func withoutAnEstimateThePaymentWaitsAndTheFirstOneToComeIsItsBar() {
        let unjudged = Self.step(Base.request(terms: Self.terms), [Self.payment], fee: nil, at: 1)
        #expect(unjudged.status == .paid && unjudged.payments.first?.nextBlockFee == nil)
        #expect(RequestStatusRule.waitsOnProviders(unjudged), "the request job looks again each round")
        let judged = Self.step(unjudged, [Self.payment], fee: Self.fee("2"), at: 2)
        #expect((judged.status, judged.payments.first?.nextBlockFee) == (.settled, Self.fee("2")))
        // A fee rate the provider could not give fails the condition, whatever the estimate.
        var unknown = Self.payment
        unknown.facts?.vsize = nil
        #expect(Self.step(Base.request(terms: Self.terms), [unknown], fee: Self.fee("1"), at: 1).status == .paid)
    }

    @Test func requestsWithoutTheRuleKeepNoEstimate() {
        let plain = RequestTerms(zeroConf: .init(maxSat: 50_000))
        let settled = Self.step(Base.request(terms: plain), [Self.payment], fee: Self.fee("100"), at: 1)
        #expect((settled.status, settled.payments.first?.nextBlockFee) == (.settled, nil))
    }
}

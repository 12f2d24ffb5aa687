import Testing

@testable import WatcherRules

/// ``AgreementCache``: what a redone or next round may reuse instead of asking again.
struct AgreementCacheTests {
    typealias Said = Agreement.Said
    static let block = Agreement.Answer.block(height: 10, hash: "aa", deltaSat: 1)

    @Test func anAgreedVerdictHoldsWhateverTheTip() {
        var memory = AgreementCache()
        let said = [Said("a", Self.block), Said("b", Self.block)]
        memory.remember("k", said, Agreement.decide(said, agree: 2), claimed: true, asked: 2, tip: 10)
        #expect(memory.entry("k", tip: 11)?.verdict.agreed == Self.block)
    }

    @Test func aContradictedClaimIsRememberedUntilTheTipMoves() {
        var memory = AgreementCache()
        let said = [Said("liar", Self.block), Said("a", .notFound), Said("b", .notFound)]
        memory.remember("k", said, Agreement.decide(said, agree: 2), claimed: true, asked: 2, tip: 10)
        #expect(memory.entry("k", tip: 10)?.said == said)
        #expect(memory.entry("k", tip: 11) == nil)
    }

    @Test func aClaimAProviderMayStillCatchUpWithIsAskedAgain() {
        var memory = AgreementCache()
        let waiting = [Said("a", Self.block), Said("b", .mempool), Said("c", .notFound)]
        memory.remember("w", waiting, Agreement.decide(waiting, agree: 2), claimed: true, asked: 2, tip: 10)
        #expect(memory.entry("w", tip: 10) == nil)
        // One provider gave no answer (unreachable): asked again too.
        let silent = [Said("a", Self.block), Said("c", .notFound)]
        memory.remember("s", silent, Agreement.decide(silent, agree: 2), claimed: true, asked: 2, tip: 10)
        #expect(memory.entry("s", tip: 10) == nil)
    }

    @Test func aWithheldClaimKeepsWhoHoldsItsBlock() {
        var memory = AgreementCache()
        // b claims a block c holds too, while a (in charge) has not mined it yet.
        let said = [Said("b", Self.block), Said("c", Self.block), Said("a", .mempool)]
        memory.remember("k", said, Agreement.decide(said, agree: 3), claimed: true, asked: 2, tip: 9)
        let both = [Said("b", Self.block), Said("c", Self.block)]
        #expect(memory.holders("k", tip: 9, onStoredChain: false) == both)
        // Once the tip moved, only while the stored chain holds that block (it may have been reorged away).
        #expect(memory.holders("k", tip: 10, onStoredChain: true) == both)
        #expect(memory.holders("k", tip: 10, onStoredChain: false).isEmpty)
        // Agreed: the verdict is remembered instead.
        let agreed = [Said("a", Self.block)] + both
        memory.remember("k", agreed, Agreement.decide(agreed, agree: 3), claimed: true, asked: 2, tip: 10)
        #expect(memory.holders("k", tip: 10, onStoredChain: true).isEmpty)
        #expect(memory.entry("k", tip: 10)?.verdict.agreed == Self.block)
    }

    @Test func onlyAnswersNamingTheClaimedBlockByHashAreHolders() {
        var memory = AgreementCache()
        let other = Agreement.Answer.block(height: 10, hash: "bb", deltaSat: 1)
        let said = [Said("b", Self.block), Said("c", other), Said("a", .notFound)]
        memory.remember("k", said, Agreement.decide(said, agree: 2), claimed: true, asked: 2, tip: 9)
        #expect(memory.holders("k", tip: 9, onStoredChain: true) == [Said("b", Self.block)])
        // A claim by height alone names no block for sure: nothing is kept.
        let byHeight = Agreement.Answer.block(height: 10, hash: nil, deltaSat: 1)
        let unsure = [Said("b", byHeight), Said("c", byHeight), Said("a", .mempool)]
        memory.remember("h", unsure, Agreement.decide(unsure, agree: 3), claimed: true, asked: 2, tip: 9)
        #expect(memory.holders("h", tip: 9, onStoredChain: true).isEmpty)
        // A lookup (no claim) has no block to hold.
        let lookup = [Said("c", Self.block)]
        memory.remember("l", lookup, Agreement.decide(lookup, agree: 2), claimed: false, asked: 2, tip: 9)
        #expect(memory.holders("l", tip: 9, onStoredChain: true).isEmpty)
    }
}

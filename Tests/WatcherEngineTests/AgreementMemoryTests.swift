import Testing

@testable import WatcherEngine

/// ``AgreementMemory``: what a redone or next round may reuse instead of asking again.
struct AgreementMemoryTests {
    typealias Said = Agreement.Said
    static let block = Agreement.Answer.block(height: 10, hash: "aa", deltaSat: 1)

    @Test func anAgreedVerdictHoldsWhateverTheTip() {
        let memory = AgreementMemory()
        let said = [Said("a", Self.block), Said("b", Self.block)]
        memory.remember("k", said, Agreement.decide(said, agree: 2), claimed: true, asked: 2, tip: 10)
        #expect(memory.entry("k", tip: 11)?.verdict.agreed == Self.block)
    }

    @Test func aContradictedClaimIsRememberedUntilTheTipMoves() {
        let memory = AgreementMemory()
        let said = [Said("liar", Self.block), Said("a", .notFound), Said("b", .notFound)]
        memory.remember("k", said, Agreement.decide(said, agree: 2), claimed: true, asked: 2, tip: 10)
        #expect(memory.entry("k", tip: 10)?.said == said)
        #expect(memory.entry("k", tip: 11) == nil)
    }

    @Test func aClaimAProviderMayStillCatchUpWithIsAskedAgain() {
        let memory = AgreementMemory()
        let waiting = [Said("a", Self.block), Said("b", .mempool), Said("c", .notFound)]
        memory.remember("w", waiting, Agreement.decide(waiting, agree: 2), claimed: true, asked: 2, tip: 10)
        #expect(memory.entry("w", tip: 10) == nil)
        // One provider gave no answer (unreachable): asked again too.
        let silent = [Said("a", Self.block), Said("c", .notFound)]
        memory.remember("s", silent, Agreement.decide(silent, agree: 2), claimed: true, asked: 2, tip: 10)
        #expect(memory.entry("s", tip: 10) == nil)
    }
}

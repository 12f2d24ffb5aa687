import Foundation
import WatcherCore
import WatcherJSON

/// Trust across providers, as pure rules: whether a confirmation is held by `agree` of a watch's providers.
///
/// A claim comes from the provider in charge (a transaction in a block, with its effect on the followed script);
/// the other providers answer when asked by txid. The claim is confirmed in the block that `agree` providers
/// hold with the same hash (and, where both tell, the same effect): the claimant's block, or another one when the
/// others agree on it and the claimant does not (the truth keeps flowing from the providers that agree). Fewer
/// than `agree`, the confirmation is withheld: the transaction stays unconfirmed, looked at again the next round.
/// Any answer that contradicts another (another block, another amount, not found) is a disagreement, announced
/// once per fact as `provider.disagreed`.
public enum Agreement {
    /// A provider's word about a transaction.
    public enum Answer: Sendable, Hashable {
        /// In the block `hash` at `height`; `deltaSat` is the effect on the followed script where it can be told.
        case block(height: Int, hash: String?, deltaSat: Int64?)
        /// Known, waiting in the mempool (or not in a block the provider has yet): no opinion on the block.
        case mempool
        /// The provider does not know the transaction.
        case notFound
    }

    /// One provider's answer, with who gave it.
    public struct Said: Sendable, Hashable {
        /// The provider id.
        public var provider: String
        /// Its answer.
        public var answer: Answer

        /// Creates an answer.
        public init(_ provider: String, _ answer: Answer) {
            self.provider = provider
            self.answer = answer
        }
    }

    /// What the answers decide.
    public struct Verdict: Sendable, Hashable {
        /// The agreed block (`.block`), when `agree` providers hold one; `nil` while withheld.
        public var agreed: Answer?
        /// The providers holding the agreed block, in the order they answered.
        public var verifiedBy: [String]
        /// Whether some answers contradict each other.
        public var disagreement: Bool
    }

    /// Whether two block answers name the same block: the same hash where both give one (else the same height),
    /// and the same effect where both tell it.
    package static func same(_ lhs: Answer, _ rhs: Answer) -> Bool {
        guard case .block(let h1, let hash1, let d1) = lhs, case .block(let h2, let hash2, let d2) = rhs else {
            return false
        }
        if let hash1, let hash2 { if hash1 != hash2 { return false } } else if h1 != h2 { return false }
        if let d1, let d2, d1 != d2 { return false }
        return true
    }

    /// Decides on `said` (the claimant first, then the others in the order asked).
    public static func decide(_ said: [Said], agree: Int) -> Verdict {
        let blocks = said.filter { if case .block = $0.answer { true } else { false } }
        var best: (answer: Answer, by: [String])?
        for candidate in blocks {
            let holders = blocks.filter { same($0.answer, candidate.answer) }.map(\.provider)
            if holders.count > (best?.by.count ?? 0) { best = (candidate.answer, holders) }
        }
        // A block answer against another block, or against "not found": the providers are not on one story.
        let contradicted =
            blocks.contains { lhs in blocks.contains { !same(lhs.answer, $0.answer) } }
            || (!blocks.isEmpty && said.contains { $0.answer == .notFound })
        guard let best, best.by.count >= agree else {
            return Verdict(agreed: nil, verifiedBy: [], disagreement: contradicted)
        }
        return Verdict(agreed: best.answer, verifiedBy: best.by, disagreement: contradicted)
    }

    /// How many more providers must be asked: none once `agree` hold one block.
    public static func needed(_ said: [Said], agree: Int) -> Bool {
        decide(said, agree: agree).agreed == nil
    }
}

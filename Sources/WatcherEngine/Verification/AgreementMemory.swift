import Synchronization
import WatcherRules

/// A job's ``AgreementCache`` (confirmations already agreed, and who holds a withheld claim's block) behind a lock,
/// for the life of the job: a round whose commit is dropped and redone, and the next rounds, reuse its verdicts
/// instead of asking the providers again.
final class AgreementMemory: Sendable {
    typealias Entry = AgreementCache.Entry

    private let cache = Mutex(AgreementCache())

    static func key(_ txid: String, _ claim: Agreement.Said?) -> String { AgreementCache.key(txid, claim) }

    func entry(_ key: String, tip: Int?) -> Entry? { cache.withLock { $0.entry(key, tip: tip) } }

    func remember(
        _ key: String,
        _ said: [Agreement.Said],
        _ verdict: Agreement.Verdict,
        claimed: Bool,
        asked: Int,
        tip: Int?
    ) {
        cache.withLock { $0.remember(key, said, verdict, claimed: claimed, asked: asked, tip: tip) }
    }

    func holders(_ key: String, tip: Int?, onStoredChain: Bool) -> [Agreement.Said] {
        cache.withLock { $0.holders(key, tip: tip, onStoredChain: onStoredChain) }
    }
}

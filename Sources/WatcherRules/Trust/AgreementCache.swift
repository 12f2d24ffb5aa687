/// What one job's verdict cache decides, as a value (the job keeps it behind a lock, the engine's `Locked`).
///
/// Confirmations already agreed, by txid and claimed block, for the life of a job: a round whose commit is dropped
/// (a block arrived meanwhile) and redone does not ask the other providers again, so a confirmed payment costs at
/// most one request per verifying provider. A withheld claim that every other provider contradicted (another block,
/// "not found") is remembered until the tip moves, so a lie costs one request per provider per block, not per round;
/// one that a provider may still catch up with (it has the transaction in its mempool, or gave no answer) is asked
/// again next round.
/// The answers are kept with the verdict, so a disagreement whose commit was dropped is announced by the redone
/// round (the same fact, the same id).
///
/// A withheld claim also leaves the providers that already hold its block (``holders(_:tip:onStoredChain:)``): when
/// the same block is claimed again (the provider that had not mined it yet now claims it itself), they are not asked
/// again. Their word stands while the tip has not moved, or while the stored chain holds that block; a block
/// reorged away is asked about afresh.
package struct AgreementCache: Sendable {
    /// An agreed verdict with the answers it came from.
    package struct Entry: Sendable {
        package var said: [Agreement.Said]
        package var verdict: Agreement.Verdict
        /// For a withheld verdict, the tip height it holds for.
        package var tip: Int?
    }

    /// The answers naming a withheld claim's block, with the tip they were given at.
    struct Holders: Sendable {
        var said: [Agreement.Said]
        var tip: Int?
    }

    private var verdicts: [String: Entry] = [:]
    private var held: [String: Holders] = [:]
    /// Most verdicts kept; past it the cache starts over (a forgotten one costs a request again, nothing more).
    package static let capacity = 10_000

    /// An empty cache.
    package init() {}

    /// The key of a claim: the txid and the block it names, whoever claims it (a block `agree` providers hold is
    /// agreed whichever of them claimed it first: the second opinion's claim spares the provider in charge's).
    package static func key(_ txid: String, _ claim: Agreement.Said?) -> String {
        "\(txid) \(claim.map { Agreement.key($0.answer) } ?? "lookup")"
    }

    /// The verdict remembered for `key` at tip `tip`, with its answers: an agreed one whatever the tip, a withheld
    /// one while the tip has not moved.
    package func entry(_ key: String, tip: Int?) -> Entry? {
        guard let entry = verdicts[key] else { return nil }
        return entry.verdict.agreed != nil || entry.tip == tip ? entry : nil
    }

    /// Remembers an agreed verdict, or a withheld one every other provider contradicted (at `tip`), with its
    /// answers; `claimed`: the first answer is the claimant's; `asked` is how many other providers could have
    /// answered.
    package mutating func remember(
        _ key: String,
        _ said: [Agreement.Said],
        _ verdict: Agreement.Verdict,
        claimed: Bool,
        asked: Int,
        tip: Int?
    ) {
        if verdict.agreed == nil {
            if claimed, let claim = said.first, case .block(_, _?, _) = claim.answer {
                if held.count >= Self.capacity { held.removeAll() }
                held[key] = Holders(said: said.filter { Agreement.same($0.answer, claim.answer) }, tip: tip)
            }
            let others = said.dropFirst(claimed ? 1 : 0)
            let contradicted = others.allSatisfy { $0.answer != .mempool }
            guard tip != nil, contradicted, others.count >= asked else { return }
        } else {
            held[key] = nil
        }
        if verdicts.count >= Self.capacity { verdicts.removeAll() }
        verdicts[key] = Entry(said: said, verdict: verdict, tip: verdict.agreed == nil ? tip : nil)
    }

    /// The providers that held the block of a withheld claim `key` (by hash), when asked at tip `tip` or when the
    /// stored chain holds that block (`onStoredChain`); none otherwise.
    package func holders(_ key: String, tip: Int?, onStoredChain: Bool) -> [Agreement.Said] {
        guard let holders = held[key], onStoredChain || holders.tip == tip else { return [] }
        return holders.said
    }
}

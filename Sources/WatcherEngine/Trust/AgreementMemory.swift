import Synchronization

/// Confirmations already agreed, by txid and claimed block, for the life of a job: a round whose commit is dropped
/// (a block arrived meanwhile) and redone does not ask the other providers again, so a confirmed payment costs at
/// most one request per verifying provider. Withheld claims are not remembered: they are asked again next round.
/// The answers are kept with the verdict, so a disagreement whose commit was dropped is announced by the redone
/// round (the same fact, the same id).
final class AgreementMemory: Sendable {
    /// An agreed verdict with the answers it came from.
    struct Entry: Sendable {
        var said: [Agreement.Said]
        var verdict: Agreement.Verdict
    }

    private let verdicts = Mutex<[String: Entry]>([:])
    /// Most verdicts kept; past it the memory starts over (a forgotten one costs a request again, nothing more).
    static let capacity = 10_000

    /// The key of a claim: the txid and the block it names.
    static func key(_ txid: String, _ claim: Agreement.Said?) -> String {
        "\(txid) \(claim.map { "\($0.provider) \(Agreement.key($0.answer))" } ?? "lookup")"
    }

    /// The agreed verdict remembered for `key`, with its answers.
    func entry(_ key: String) -> Entry? {
        verdicts.withLock { $0[key] }
    }

    /// Remembers an agreed verdict and its answers.
    func remember(_ key: String, _ said: [Agreement.Said], _ verdict: Agreement.Verdict) {
        guard verdict.agreed != nil else { return }
        verdicts.withLock { verdicts in
            if verdicts.count >= Self.capacity { verdicts.removeAll() }
            verdicts[key] = Entry(said: said, verdict: verdict)
        }
    }
}

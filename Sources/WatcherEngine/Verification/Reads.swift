import WatcherRules
import WatcherScheduler

/// How a job reads the confirmations its providers claim: the word of the provider in charge, or held by `agree` of
/// the watch's providers in the same block. A job is handed one and does not know which: with `agreed`, a
/// ``Verifier`` stands in front of the providers, the way swift-log's multiplex handler stands in front of N
/// handlers.
enum Reads: Sendable {
    /// The provider in charge alone.
    case single
    /// `agree` providers must hold a confirmation in one block, remembered across the job's rounds; `seenBy` must
    /// report an unconfirmed payment (1: the others are not asked about it).
    case agreed(Int, seenBy: Int, Locked<AgreementCache>)

    /// `agreed` for `agree` or `seenBy` (a wallet's `zeroConf.minSeenBy`) above 1, else `single`.
    init(agree: Int, seenBy: Int = 1) {
        self = agree > 1 || seenBy > 1 ? .agreed(agree, seenBy: seenBy, Locked(AgreementCache())) : .single
    }

    /// The same reading with a memory of its own (a push reads each change afresh).
    func renewed() -> Reads {
        guard case .agreed(let agree, let seenBy, _) = self else { return .single }
        return .agreed(agree, seenBy: seenBy, Locked(AgreementCache()))
    }

    /// Whether confirmations are checked against other providers.
    var verifies: Bool {
        if case .agreed(let agree, _, _) = self { agree > 1 } else { false }
    }

    /// The verifier of one round over `providers`, `nil` when the provider in charge is taken at its word.
    func verifier(_ providers: [String], context: EngineContext, priority: RequestPriority) -> Verifier? {
        guard case .agreed(let agree, let seenBy, let memory) = self,
            var verifier = Verifier(
                providers: providers,
                agree: agree,
                seenBy: seenBy,
                context: context,
                priority: priority
            )
        else { return nil }
        verifier.memory = memory
        return verifier
    }
}

import WatcherCore
import WatcherRules

/// How the tip job reads a chain's tip: the word of the first of its providers that answers, or, with `agree`
/// above 1 on some watch of the chain, the tip that `agree` providers share (``AgreedTip``). The tip job asks it
/// and does not know which it is.
enum TipReader: Sendable {
    /// The first of the job's providers that answers (failover along the list).
    case first
    /// The tip `agree` of the trusted providers share.
    case agreed(AgreedTip)

    /// The tip to follow, `nil` while none is agreed (the stored chain then stays where it is).
    func tip(_ providers: [String], memory: ChainMemory, context: EngineContext) async throws -> BlockRef? {
        switch self {
        case .first: try await context.tip(providers)
        case .agreed(let agreed): try await agreed.read(memory: memory)
        }
    }
}

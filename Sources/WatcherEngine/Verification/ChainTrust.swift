import Synchronization
import WatcherConfiguration
import WatcherRules

/// A chain's ``TipTrust`` while the engine runs: remembers each provider's standing between rounds of the tip job,
/// so a change is reported once.
final class ChainTrust: Sendable {
    let rule: TipTrust
    /// Each judged provider's standing after the last round.
    let standings = Mutex<[String: TipAgreement.Standing]>([:])

    init(_ rule: TipTrust) { self.rule = rule }

    var agree: Int { rule.agree }
    var maxLag: Int { rule.maxLag }
    var providers: [String] { rule.providers }
}

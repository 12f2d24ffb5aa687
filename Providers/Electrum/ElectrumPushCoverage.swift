import Logging
import Synchronization

/// What an Electrum push connection covers: when the server's subscription cap (Fulcrum's `max_subs_per_ip`) refused
/// some followed addresses, which ones. Those stay with their watch's polls; the push keeps the subscriptions it has.
public final class ElectrumPushCoverage: Sendable {
    struct State {
        var capped = false
        var uncovered: [String] = []
        var subscribed = 0
        var warned = false
        var tooLarge: Set<String> = []
    }

    private let state = Mutex(State())
    let logger = Logger(label: "watcher.electrum")

    /// Whether the last connection hit the cap.
    public var capped: Bool { state.withLock { $0.capped } }
    /// The followed addresses not subscribed because of the cap.
    public var uncovered: [String] { state.withLock { $0.uncovered } }
    /// How many scripthashes the connection follows.
    public var subscribed: Int { state.withLock { $0.subscribed } }

    /// The followed addresses the server refused for a history past its limit (ElectrumX's error 10001).
    public var tooLarge: Set<String> { state.withLock { $0.tooLarge } }

    /// Records the addresses refused for their history's length. Returns those not reported before, to warn about.
    func update(tooLarge: Set<String>) -> Set<String> {
        state.withLock { state in
            defer { state.tooLarge = tooLarge }
            return tooLarge.subtracting(state.tooLarge)
        }
    }

    /// Records a connection's coverage. Returns whether to warn: the first time the cap leaves addresses out, and
    /// again after the cap stopped mattering.
    func update(capped: Bool, uncovered: [String], subscribed: Int) -> Bool {
        state.withLock { state in
            state.capped = capped
            state.uncovered = uncovered
            state.subscribed = subscribed
            let warn = capped && !uncovered.isEmpty && !state.warned
            if warn { state.warned = true }
            if uncovered.isEmpty { state.warned = false }
            return warn
        }
    }
}

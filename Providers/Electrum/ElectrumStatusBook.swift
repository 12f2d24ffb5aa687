import Synchronization

/// What the push connection knows of each subscribed scripthash, lent to the provider's address summaries: an
/// address whose live subscription says it has no history (status `null`) is unused, and its summary needs no
/// request. An address the push does not follow yet is subscribed there on demand: its status answers the summary
/// when it is `null`, and the push then follows it without asking again. So a wallet's unused addresses (most of
/// its window) cost one request each to sync, on the push connection, and none in later polls, where a summary
/// costs `get_balance` and `get_history`.
///
/// Lent only while the push connection is up (a lost connection forgets every status), and never for a Fulcrum
/// server: Fulcrum answers the status of a history longer than its `max_history` as `null`, and the summary's own
/// requests are what tell such an address from an unused one.
final class ElectrumStatusBook: Sendable {
    /// Subscribes a scripthash of an address on the push connection: its status, or `nil` when it cannot tell
    /// (the server's cap, a history too large).
    typealias Subscriber = @Sendable (_ scripthash: String, _ address: String) async -> String??

    private struct State {
        /// The push connection that lends its statuses, by a number of its own.
        var session: Int?
        var subscriber: Subscriber?
        var statuses: [String: String?] = [:]
        var sessions = 0
    }

    private let state = Mutex(State())

    /// A push connection is up: its subscriber answers for addresses it does not follow yet. Returns its session.
    func attach(_ subscriber: @escaping Subscriber) -> Int {
        state.withLock { state in
            state.sessions += 1
            state.session = state.sessions
            state.subscriber = subscriber
            state.statuses = [:]
            return state.sessions
        }
    }

    /// `session`'s connection is gone: nothing it said holds any more.
    func detach(_ session: Int) {
        state.withLock { state in
            guard state.session == session else { return }
            state.session = nil
            state.subscriber = nil
            state.statuses = [:]
        }
    }

    /// What `session`'s subscription of `scripthash` says now (`nil`: no history), or that it ended (`forget`).
    func record(_ scripthash: String, status: String?, session: Int) {
        state.withLock { state in
            guard state.session == session else { return }
            state.statuses[scripthash] = .some(status)
        }
    }

    func forget(_ scripthash: String, session: Int) {
        state.withLock { state in
            guard state.session == session else { return }
            state.statuses[scripthash] = nil
        }
    }

    /// Whether `address` (its `scripthash`) is known unused: its live subscription's status is `null`, asked on the
    /// push connection if it was not subscribed yet. `false` when it has a history, or when no push connection can
    /// tell.
    func isUnused(_ scripthash: String, address: String) async -> Bool {
        let (known, subscriber) = state.withLock { ($0.statuses[scripthash], $0.subscriber) }
        if let known { return known == nil }
        guard let subscriber, let status = await subscriber(scripthash, address) else { return false }
        return status == nil
    }
}

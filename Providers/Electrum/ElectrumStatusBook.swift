import Synchronization

/// What the push connection knows of each subscribed scripthash, lent to the provider: its status (a hash of its
/// history, mempool included, that the server pushes anew at every change), and the history and balance read at
/// that status. While a status stands, what was read at it still holds:
///
/// - an address whose status is `null` has no history: its summary needs no request;
/// - a history or a balance read at the current status is answered again without a request (a summary, the
///   history read after it and the summary read again to check it cost one `get_history` and one `get_balance`).
///
/// An address the push does not follow yet is subscribed there on demand, and followed from then on. So a wallet's
/// unused addresses (most of its window) cost one request each to sync, and none in later polls.
///
/// Lent only while the push connection is up (a lost connection forgets everything), and never for a Fulcrum
/// server: Fulcrum answers the status of a history longer than its `max_history` as `null`, and the summary's own
/// requests are what tell such an address from an unused one.
final class ElectrumStatusBook: Sendable {
    /// Subscribes a scripthash of an address on the push connection: its status, or `nil` when it cannot tell
    /// (the server's cap, a history too large, an error).
    typealias Subscriber = @Sendable (_ scripthash: String, _ address: String) async -> String??

    /// What is known at one status.
    struct Entry: Sendable {
        var status: String?
        var history: [ElectrumProvider.HistoryEntry]?
        var balance: (confirmed: Int64, unconfirmed: Int64)?
    }

    private struct State {
        /// The push connection that lends its statuses, by a number of its own.
        var session: Int?
        var subscriber: Subscriber?
        var entries: [String: Entry] = [:]
        var sessions = 0
    }

    private let state = Mutex(State())

    /// A push connection is up: its subscriber answers for addresses it does not follow yet. Returns its session.
    func attach(_ subscriber: @escaping Subscriber) -> Int {
        state.withLock { state in
            state.sessions += 1
            state.session = state.sessions
            state.subscriber = subscriber
            state.entries = [:]
            return state.sessions
        }
    }

    /// `session`'s connection is gone: nothing it said holds any more.
    func detach(_ session: Int) {
        state.withLock { state in
            guard state.session == session else { return }
            state.session = nil
            state.subscriber = nil
            state.entries = [:]
        }
    }

    /// `session`'s subscription of `scripthash` has `status` now; what was read at another status is dropped.
    func record(_ scripthash: String, status: String?, history: [ElectrumProvider.HistoryEntry]? = nil, session: Int) {
        state.withLock { state in
            guard state.session == session else { return }
            var entry = state.entries[scripthash].flatMap { $0.status == status ? $0 : nil } ?? Entry(status: status)
            if let history { entry.history = history }
            state.entries[scripthash] = entry
        }
    }

    /// `session` no longer follows `scripthash`.
    func forget(_ scripthash: String, session: Int) {
        state.withLock { state in
            guard state.session == session else { return }
            state.entries[scripthash] = nil
        }
    }

    /// The live status of `scripthash` (`.some(nil)`: no history), subscribed on the push connection first when it
    /// is not followed yet; `nil` when no push connection can tell.
    func status(_ scripthash: String, address: String) async -> String?? {
        let (known, subscriber) = state.withLock { ($0.entries[scripthash], $0.subscriber) }
        if let known { return .some(known.status) }
        guard let subscriber else { return nil }
        return await subscriber(scripthash, address)
    }

    /// What is known of `scripthash` at its live status, without subscribing it.
    func current(_ scripthash: String) -> Entry? {
        state.withLock { $0.entries[scripthash] }
    }

    /// Keeps `history` as read at `status`, unless the status moved meanwhile.
    func store(history: [ElectrumProvider.HistoryEntry], _ scripthash: String, at status: String?) {
        state.withLock { state in
            guard state.entries[scripthash]?.status == status else { return }
            state.entries[scripthash]?.history = history
        }
    }

    /// Keeps `balance` as read at `status`, unless the status moved meanwhile.
    func store(balance: (confirmed: Int64, unconfirmed: Int64), _ scripthash: String, at status: String?) {
        state.withLock { state in
            guard state.entries[scripthash]?.status == status else { return }
            state.entries[scripthash]?.balance = balance
        }
    }
}

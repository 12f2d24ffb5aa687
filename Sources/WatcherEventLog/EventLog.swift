import WatcherCore
import WatcherStorage

/// The event log, the spine of the design: the engine appends facts in order, each id once, in the same write
/// transaction as the state that produced them; every sink reads the log from its own persisted cursor; the
/// trimmer removes what every sink has passed. A crash between two steps loses nothing and repeats nothing.
///
/// The entries live in the store (``StoreTransaction``'s event-log methods: the `events` table, its `eventIDs`
/// index, the next sequence number in `meta`); ``LogSignal`` wakes the readers after each commit.
///
/// ```swift
/// let log = EventLog(store: store, signal: signal)
/// let appended = try await log.commit { txn in
///     try txn.putAddressState(state)
///     return events  // facts already logged are refused
/// }
/// for await _ in log.subscribe() { let batch = try log.entries(from: cursor + 1, limit: 100) }
/// ```
public struct EventLog: Sendable {
    /// Where the entries live.
    public let store: Store
    /// What wakes the readers.
    public let signal: LogSignal

    /// The log of `store`, waking readers through `signal`.
    public init(store: Store, signal: LogSignal = LogSignal()) {
        self.store = store
        self.signal = signal
    }

    /// Commits `body`'s state changes and the events it returns in one write transaction, then wakes the readers.
    /// - Returns: the events actually appended: an id already in the log is refused, so a fact is told once.
    @discardableResult
    public func commit<Event: LoggableEvent>(
        _ body: @escaping @Sendable (StoreTransaction<WriteTransaction>) throws -> [Event]
    ) async throws -> [Event] {
        let appended = try await store.write(.commit) { txn in
            try body(txn).filter { try txn.appendEvent(id: $0.id, type: $0.type, body: $0.body) != nil }
        }
        if !appended.isEmpty { signal.notify() }
        return appended
    }

    /// Entries from `seq` on, oldest first.
    public func entries(from seq: UInt64 = 0, limit: Int = .max) throws -> [LoggedEvent] {
        try store.read { try $0.events(from: seq, limit: limit) }
    }

    /// The highest sequence number ever assigned (0 when none).
    public func head() throws -> UInt64 {
        try store.read { try $0.lastEventSeq() }
    }

    /// Wake-ups after commits, for one reader.
    public func subscribe() -> AsyncStream<Void> { signal.subscribe() }
}

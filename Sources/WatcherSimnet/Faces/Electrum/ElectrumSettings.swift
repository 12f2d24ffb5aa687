/// The simnet's Electrum face: which server it imitates, and its switches (`GET`/`POST /control/electrum`).
public struct ElectrumSettings: Sendable, Hashable {
    /// The Electrum server a session imitates (reference nodes.md §2.2).
    public enum Personality: String, Sendable, Hashable, CaseIterable, Codable {
        /// romanz/electrs: protocol 1.4 only, `block.headers` as `{count, hex, max}`, no
        /// `scripthash.get_mempool` (-32601), no `cp_height` (-32602), no subscription cap.
        case electrs
        /// Fulcrum: protocol 1.4 to 1.6 (`block.headers` as `{count, headers[], max}` from 1.6),
        /// `scripthash.get_mempool`, and a per-client subscription cap answered with error 4.
        case fulcrum
        /// ElectrumX (spesmilo): protocol 1.4 to 1.6, `scripthash.get_mempool`, and error 10001 "history too large"
        /// for a scripthash whose history is longer than its limit.
        case electrumx

        /// `server.version`'s first result member.
        var software: String {
            switch self {
            case .electrs: "electrs/0.10.9"
            case .fulcrum: "Fulcrum 1.12.0"
            case .electrumx: "ElectrumX 1.18.0"
            }
        }

        /// The protocol versions served, lowest first.
        var protocols: [String] {
            switch self {
            case .electrs: ["1.4"]
            case .fulcrum, .electrumx: ["1.4", "1.4.1", "1.4.2", "1.5", "1.6"]
            }
        }
    }

    /// The server imitated (`electrs` by default).
    public var personality: Personality
    /// Fulcrum's `max_subs_per_ip` (75,000 by default), applied per connection: the subscription past it gets error
    /// 4 "Subscription limit reached". electrs has no cap.
    public var maxSubscriptions: Int
    /// Send every scripthash notification twice, as electrs can for one block.
    public var duplicateNotifications: Bool
    /// Drop this many of the next scripthash notifications (one per subscription and change), as a server can miss
    /// one at a block boundary; counts down to 0.
    public var dropNotifications: Int
    /// The index trails the chain by this many blocks, as an indexer catching up does: headers, histories,
    /// statuses and balances are those of the chain without its top `indexLag` blocks (their transactions are
    /// unknown to the index, as they are to a lagging electrs, which only sees the node's mempool). The node faces
    /// keep the real tip. At most the chain's length less one.
    public var indexLag: Int
    /// electrs's state while it builds or compacts its index: every method but `server.version`,
    /// `blockchain.block.header(s)` and `blockchain.headers.subscribe` answers -32603 "unavailable index".
    public var indexUnavailable: Bool
    /// The longest history served (`nil`: no limit). Past it Fulcrum (`max_history`, 125,000 by default) answers
    /// `subscribe` with a `null` status and `get_history`/`listunspent` with `[]`, silently (Fulcrum#319);
    /// ElectrumX answers `subscribe` and `get_history` with error 10001 "history too large". electrs ignores it
    /// (its `index_lookup_limit` is off by default).
    public var maxHistory: Int?
    /// Methods answered -32601 "method not found", as by a server (or a fork) that lacks them.
    public var missingMethods: Set<String>

    /// Creates settings.
    public init(
        personality: Personality = .electrs,
        maxSubscriptions: Int = 75_000,
        duplicateNotifications: Bool = false,
        dropNotifications: Int = 0,
        indexLag: Int = 0,
        indexUnavailable: Bool = false,
        maxHistory: Int? = nil,
        missingMethods: Set<String> = []
    ) {
        self.personality = personality
        self.maxSubscriptions = maxSubscriptions
        self.duplicateNotifications = duplicateNotifications
        self.dropNotifications = dropNotifications
        self.indexLag = indexLag
        self.indexUnavailable = indexUnavailable
        self.maxHistory = maxHistory
        self.missingMethods = missingMethods
    }
}

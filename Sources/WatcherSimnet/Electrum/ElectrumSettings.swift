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

        /// `server.version`'s first result member.
        var software: String {
            switch self {
            case .electrs: "electrs/0.10.9"
            case .fulcrum: "Fulcrum 1.12.0"
            }
        }

        /// The protocol versions served, lowest first.
        var protocols: [String] {
            switch self {
            case .electrs: ["1.4"]
            case .fulcrum: ["1.4", "1.4.1", "1.4.2", "1.5", "1.6"]
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

    /// Creates settings.
    public init(
        personality: Personality = .electrs,
        maxSubscriptions: Int = 75_000,
        duplicateNotifications: Bool = false,
        dropNotifications: Int = 0
    ) {
        self.personality = personality
        self.maxSubscriptions = maxSubscriptions
        self.duplicateNotifications = duplicateNotifications
        self.dropNotifications = dropNotifications
    }
}

/// Blockbook's websocket limits, as the simnet enforces them (`../shared/reference/blockbook-api.md` §5).
public struct WebSocketLimits: Sendable, Equatable {
    /// Messages a connection may send per ``window`` (pings included) before it is closed and its IP banned.
    public var messages: Int
    /// The message window.
    public var window: Duration
    /// How long a ban lasts: new connections get HTTP 429 meanwhile.
    public var ban: Duration
    /// Most addresses one `subscribeAddresses` takes.
    public var maxAddresses: Int

    /// Creates limits; the defaults are Blockbook's: 2,500 messages per 10 minutes, a 12-hour ban, 1,000
    /// addresses.
    public init(
        messages: Int = 2500,
        window: Duration = .seconds(600),
        ban: Duration = .seconds(43_200),
        maxAddresses: Int = 1000
    ) {
        self.messages = messages
        self.window = window
        self.ban = ban
        self.maxAddresses = maxAddresses
    }
}

/// What the websocket served, for tests (`GET /control/websocket`).
public struct WebSocketStats: Sendable, Equatable {
    /// Connections accepted.
    public var connections = 0
    /// Connections open now.
    public var open = 0
    /// Messages received from clients.
    public var received = 0
    /// Pushes sent (new blocks and address transactions).
    public var pushes = 0
    /// Connections closed for exceeding the message limit.
    public var closedForLimit = 0
    /// Upgrades refused while banned.
    public var refusedWhileBanned = 0
    /// Whether new connections are refused now.
    public var banned = false
}

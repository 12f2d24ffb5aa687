/// What a push connection reports.
public enum PushEvent: Sendable, Equatable {
    /// The connection is up and subscribed to new blocks and the addresses (again after a re-subscription).
    case subscribed
    /// A block was connected to the provider's chain.
    case newBlock(height: Int, hash: String)
    /// A transaction touching a subscribed address entered the mempool, with its net effect on the address when
    /// the push carried the whole transaction (`nil`: ask the provider), and then its zero-conf facts (fee, vsize,
    /// sequences, the outputs it spends) and its net effect on every address it touches (`deltas`), as far as the
    /// push told them: a wallet's addresses the transaction touches are applied together, so its wallet step is
    /// the transaction's whole effect on the wallet, whichever address's push came first.
    case addressTx(
        address: String,
        txid: String,
        deltaSat: Int64?,
        confirmed: Bool,
        facts: TxFacts? = nil,
        deltas: [String: Int64]? = nil
    )
    /// A transaction entered the provider's mempool (`txid`), or the push may have missed some (`nil`: after a
    /// connect or a gap): the mempool job reads that transaction at once, or the whole mempool.
    case mempool(txid: String?)
}

/// Live notifications from a provider over one long-lived connection (Blockbook's websocket): new blocks, and
/// transactions of up to ``maxAddresses`` addresses. The engine still reads everything it announces through the
/// provider's REST calls; a push only says when to look.
public protocol ChainPushing: Sendable {
    /// The most addresses one connection follows.
    var maxAddresses: Int { get }

    /// Whether every change of a subscribed address's history is pushed, confirmations and reorgs included (an
    /// Electrum server's scripthash status): then a block need not start a round of every polled address while
    /// the connection is up. `false` by default.
    var pushesEveryChange: Bool { get }

    /// Whether the connection asks `addresses()` again often enough (every second or so) to subscribe a grown
    /// wallet window itself, one new address at a time: then the engine does not reconnect to subscribe it, which
    /// for a client subscribing address by address (Electrum) would subscribe the whole window again each time it
    /// grows. `false` by default.
    var followsGrowth: Bool { get }

    /// Connects, subscribes to new blocks and to `addresses()` (asked again now and then; a changed set is
    /// subscribed anew), and reports every push to `onEvent` until the connection ends.
    /// - Throws: why the connection ended (refused, closed by the server, cancelled).
    func follow(
        addresses: @escaping @Sendable () async -> [String],
        onEvent: @escaping @Sendable (PushEvent) async -> Void
    ) async throws
}

extension ChainPushing {
    /// Not every change is pushed (a block still starts a round of the polled addresses).
    public var pushesEveryChange: Bool { false }
    /// A grown window is subscribed by a new connection.
    public var followsGrowth: Bool { false }
}

extension ChainProvider {
    /// No push connection.
    public var push: (any ChainPushing)? { nil }
}

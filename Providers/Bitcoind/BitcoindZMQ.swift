import WatcherCore
import WatcherZMQ

/// Bitcoin Core's ZMQ notifications (`hashblock`, `sequence`) as a ``ChainPushing``: a hint, never the truth.
///
/// It never reports ``PushEvent/subscribed``, so the tip job keeps polling at its interval (polling is the truth);
/// it reports ``PushEvent/newBlock(height:hash:)`` (height `-1`: not known from the message) whenever the tip may
/// have moved or something may have been missed, and the tip job polls at once:
/// - every `hashblock` (or, from a node that publishes only `sequence`, every `C`/`D`);
/// - every (re)connect, since a PUB socket drops what it sent while no one was connected;
/// - the first message of a topic after a connect, a gap in a topic's counter, and a malformed message.
/// It reports ``PushEvent/mempool(txid:)`` with the txid of every `sequence` `A` that follows its counter (the
/// mempool job reads that transaction at once), and with `nil` (read the whole mempool) at every (re)connect, and at
/// a gap or a malformed message in `sequence`; `R` is dropped (the next whole read prunes it). It follows no
/// addresses (``maxAddresses`` is 0).
public struct BitcoindZMQ: ChainPushing {
    public var maxAddresses: Int { 0 }
    /// The publisher's endpoint: configured, or discovered through `getzmqnotifications` at each connect.
    let endpoint: @Sendable () async throws -> String
    let receiveTimeout: Duration
    let reconnectAfter: Duration

    /// Creates a follower.
    /// - Parameters:
    ///   - endpoint: the `tcp://host:port` to connect to, asked again at each connect.
    ///   - receiveTimeout: how often the thread looks up from its socket (to stop).
    ///   - reconnectAfter: a silence this long tears the socket down and connects again.
    public init(
        endpoint: @escaping @Sendable () async throws -> String,
        receiveTimeout: Duration = .seconds(1),
        reconnectAfter: Duration = .seconds(1_800)
    ) {
        self.endpoint = endpoint
        self.receiveTimeout = receiveTimeout
        self.reconnectAfter = reconnectAfter
    }

    /// The ZMQ subscription ended (never by itself while connected).
    public struct Ended: Error, CustomStringConvertible {
        public let endpoint: String
        public var description: String { "the ZMQ subscription to \(endpoint) ended" }
    }

    public func follow(
        addresses: @escaping @Sendable () async -> [String],
        onEvent: @escaping @Sendable (PushEvent) async -> Void
    ) async throws {
        let endpoint = try await endpoint()
        let subscriber = ZMQSubscriber(
            endpoint: endpoint,
            topics: ["hashblock", "sequence"],
            receiveTimeout: receiveTimeout,
            reconnectAfter: reconnectAfter
        )
        defer { subscriber.stop() }
        var hints = Hints()
        for await event in subscriber.events() {
            let hint = hints.read(event)
            if hint.tip { await onEvent(.newBlock(height: -1, hash: Self.hash(event) ?? "")) }
            if let mempool = hint.mempool { await onEvent(.mempool(txid: mempool.txid)) }
        }
        try Task.checkCancellation()
        throw Ended(endpoint: endpoint)
    }

    /// The rules deciding which messages call for a poll now, pure: the counters per topic, and whether
    /// `hashblock` is published (then it alone stands for blocks; a `sequence` `C`/`D` beside it would poll twice).
    struct Hints: Sendable {
        var tracker = ZMQSequenceTracker()
        var hashblockSeen = false

        /// What one event calls for: a tip poll now, and a mempool read now (of `txid`, or in full when `nil`).
        struct Hint: Sendable, Equatable {
            var tip = false
            var mempool: Mempool?

            struct Mempool: Sendable, Equatable {
                var txid: String?
            }
        }

        /// Whether `event` calls for a tip poll now.
        mutating func wake(_ event: ZMQSubscriber.Event) -> Bool { read(event).tip }

        mutating func read(_ event: ZMQSubscriber.Event) -> Hint {
            let full = Hint.Mempool(txid: nil)
            switch event {
            case .connected:
                tracker.reset()
                hashblockSeen = false
                return Hint(tip: true, mempool: full)
            case .message(let message):
                let continuous = tracker.observe(message)
                let sequence = message.topic == "sequence"
                if message.topic == "hashblock" { hashblockSeen = true }
                guard continuous else { return Hint(tip: true, mempool: sequence ? full : nil) }
                guard let notification = try? ZMQNotification(message) else {
                    return Hint(tip: true, mempool: sequence ? full : nil)
                }
                switch notification {
                case .hashBlock: return Hint(tip: true)
                case .blockConnected, .blockDisconnected: return Hint(tip: !hashblockSeen)
                case .mempoolAdded(let txid, _): return Hint(mempool: .init(txid: txid))
                default: return Hint()
                }
            case .malformed:
                return Hint(tip: true, mempool: full)
            case .silence, .failed:
                return Hint()
            }
        }
    }

    private static func hash(_ event: ZMQSubscriber.Event) -> String? {
        guard case .message(let message) = event, let notification = try? ZMQNotification(message) else { return nil }
        switch notification {
        case .hashBlock(let hash), .blockConnected(let hash): return hash
        default: return nil
        }
    }
}

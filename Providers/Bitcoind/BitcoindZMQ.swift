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
/// Mempool messages (`sequence` `A`/`R`) that follow their counter are read and dropped: the engine has no mempool
/// job to ring yet. It follows no addresses (``maxAddresses`` is 0).
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
            if hints.wake(event) { await onEvent(.newBlock(height: -1, hash: Self.hash(event) ?? "")) }
        }
        try Task.checkCancellation()
        throw Ended(endpoint: endpoint)
    }

    /// The rules deciding which messages call for a poll now, pure: the counters per topic, and whether
    /// `hashblock` is published (then it alone stands for blocks; a `sequence` `C`/`D` beside it would poll twice).
    struct Hints: Sendable {
        var tracker = ZMQSequenceTracker()
        var hashblockSeen = false

        mutating func wake(_ event: ZMQSubscriber.Event) -> Bool {
            switch event {
            case .connected:
                tracker.reset()
                hashblockSeen = false
                return true
            case .message(let message):
                let continuous = tracker.observe(message)
                if message.topic == "hashblock" { hashblockSeen = true }
                guard continuous else { return true }
                guard let notification = try? ZMQNotification(message) else { return true }
                switch notification {
                case .hashBlock: return true
                case .blockConnected, .blockDisconnected: return !hashblockSeen
                default: return false
                }
            case .malformed:
                return true
            case .silence, .failed:
                return false
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

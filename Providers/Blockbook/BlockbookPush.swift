import Foundation
import HummingbirdWSClient
import Logging
import WatcherCore
import WatcherHTTP

/// Blockbook's websocket (`/websocket`) as a ``ChainPushing``: `subscribeNewBlock` and `subscribeAddresses`
/// (at most 1,000 addresses per connection), and the `ping` method every 45 s so that proxies keep the socket.
///
/// It stays well inside Blockbook's limits (2,500 messages per 10 minutes per connection, pings included; 48
/// requests in flight): two subscriptions, a re-subscription when the address set changes (checked every 30 s),
/// and 14 pings per 10 minutes. Frames are JSON text; request ids are strings, as Blockbook requires.
public struct BlockbookPush: ChainPushing {
    /// The websocket URL, e.g. `wss://btc1.trezor.io/websocket`.
    public let url: String
    public let maxAddresses = 1000
    let logger: Logger
    /// How often the `ping` method is sent.
    var pingInterval: Duration = .seconds(45)
    /// How often the address set is compared with the subscribed one.
    var recheckInterval: Duration = .seconds(30)

    static let blockID = "block"
    static let addressesID = "addresses"

    /// The push connection of the Blockbook instance at `baseURL` (`http` becomes `ws`, `https` `wss`).
    public init(baseURL: String, logger: Logger) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasPrefix("https://") {
            base = "wss://" + base.dropFirst("https://".count)
        } else if base.hasPrefix("http://") {
            base = "ws://" + base.dropFirst("http://".count)
        }
        url = base + "/websocket"
        self.logger = logger
    }

    public func follow(
        addresses: @escaping @Sendable () async -> [String],
        onEvent: @escaping @Sendable (PushEvent) async -> Void
    ) async throws {
        var configuration = WebSocketClientConfiguration(maxFrameSize: 4 << 20)
        configuration.autoPing = .disabled
        let maxAddresses = self.maxAddresses
        let (pingInterval, recheckInterval) = (self.pingInterval, self.recheckInterval)
        let closed = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) {
            inbound,
            outbound,
            _ in
            let initial = Array(await addresses().prefix(maxAddresses))
            try await outbound.write(.text(Self.request(id: Self.blockID, method: "subscribeNewBlock")))
            try await outbound.write(.text(Self.subscribeAddresses(initial)))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    var subscribed = initial
                    var sincePing = Duration.zero
                    while true {
                        try await Task.sleep(for: recheckInterval)
                        sincePing += recheckInterval
                        let current = Array(await addresses().prefix(maxAddresses))
                        if current != subscribed {
                            subscribed = current
                            try await outbound.write(.text(Self.subscribeAddresses(current)))
                        }
                        if sincePing >= pingInterval {
                            sincePing = .zero
                            try await outbound.write(.text(Self.request(id: "ping", method: "ping")))
                        }
                    }
                }
                var acknowledged: Set<String> = []
                for try await message in inbound.messages(maxSize: 4 << 20) {
                    guard case .text(let text) = message, let event = try Self.event(text, acknowledged: &acknowledged)
                    else { continue }
                    await onEvent(event)
                }
                group.cancelAll()
            }
        }
        throw ProviderError.unavailable(
            provider: "blockbook-websocket",
            status: nil,
            detail: "the websocket closed"
                + (closed.map { " (\($0.closeCode)\($0.reason.map { ": \($0)" } ?? ""))" } ?? "")
        )
    }

    /// One request frame.
    static func request(id: String, method: String, params: JSONValue = .object([])) -> String {
        JSONValue.object([.init("id", .string(id)), .init("method", .string(method)), .init("params", params)])
            .serialized()
    }

    static func subscribeAddresses(_ addresses: [String]) -> String {
        request(
            id: addressesID,
            method: "subscribeAddresses",
            params: .object([.init("addresses", .array(addresses.map(JSONValue.string)))])
        )
    }

    /// The event a frame carries, if any: subscription acks (both acknowledged: ``PushEvent/subscribed``), new
    /// blocks and address transactions.
    /// - Throws: ``ProviderError/unavailable`` when Blockbook refused a subscription.
    static func event(_ text: String, acknowledged: inout Set<String>) throws -> PushEvent? {
        guard let frame = try? JSONValue.parse(text), let id = frame["id"]?.stringValue, let data = frame["data"]
        else { return nil }
        if let message = data["error"]?["message"]?.stringValue {
            throw ProviderError.unavailable(provider: "blockbook-websocket", status: nil, detail: message)
        }
        if data["subscribed"] == .bool(true) {
            let both: Set<String> = [blockID, addressesID]
            let wasComplete = acknowledged.isSuperset(of: both)
            acknowledged.insert(id)
            // Once both are acknowledged, and again after each re-subscription of the addresses.
            guard acknowledged.isSuperset(of: both), !wasComplete || id == addressesID else { return nil }
            return .subscribed
        }
        switch id {
        case blockID:
            guard case .number(let height)? = data["height"], let value = Int(height),
                let hash = data["hash"]?.stringValue
            else { return nil }
            return .newBlock(height: value, hash: hash)
        case addressesID:
            guard let address = data["address"]?.stringValue, let tx = data["tx"], let txid = tx["txid"]?.stringValue
            else { return nil }
            let decoded = try? BlockbookDecoder(provider: "blockbook-websocket")
                .transaction(ProviderHTTP.JSONNode(tx, path: "data.tx", provider: "blockbook-websocket"))
            return .addressTx(
                address: address,
                txid: txid,
                deltaSat: decoded?.delta(for: address),
                confirmed: decoded?.blockHeight != nil
            )
        default:
            return nil
        }
    }
}

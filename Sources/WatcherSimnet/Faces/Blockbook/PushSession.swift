import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import WatcherCore
import WatcherJSON

/// One websocket connection to the simnet's `/websocket`, answering like Blockbook: JSON text frames
/// `{"id": "<string>", "method": …, "params": {…}}`, answers `{"id": …, "data": …}`, pushes that reuse the
/// subscription's id, no answer to unknown methods, and the connection closed on a numeric id, invalid JSON, a
/// binary frame, or more messages than the limit (which also bans new connections).
struct PushSession {
    let world: SimnetWorld
    /// The socket, for a hard drop by the control API.
    let channel: (any Channel)?

    var hub: PushHub { world.hub }

    /// Serves one connection until either side closes it.
    func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async throws {
        let (id, outbox) = hub.open(channel: channel)
        defer { hub.close(id) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in outbox { try await outbound.write(.text(frame)) }
                // The outbox ends when the server closes the connection, for a policy or by the control API.
                if let reason = hub.closeReason(id) {
                    try? await outbound.close(.policyViolation, reason: reason)
                } else {
                    try? await outbound.close(.goingAway, reason: "closed by the server")
                }
            }
            group.addTask {
                for try await message in inbound.messages(maxSize: 4 << 20) {
                    let answer: PushHub.Answer
                    if case .text(let text) = message {
                        answer = hub.count(id) ? handle(text, connection: id) : .close("too many messages")
                    } else {
                        answer = .close("binary frames are not supported")
                    }
                    switch answer {
                    case .reply(let frame):
                        hub.reply(id, frame)
                    case .none:
                        continue
                    case .close(let reason):
                        // What was answered before goes out first, then the close frame.
                        hub.finishOutbox(id, reason: reason)
                        return
                    }
                }
            }
            // The first side to end ends the connection; a policy close waits for the writer's close frame.
            _ = try await group.next()
            if hub.closeReason(id) != nil { _ = try? await group.next() }
            group.cancelAll()
        }
    }

    /// The answer to one request frame.
    func handle(_ text: String, connection: UInt64) -> PushHub.Answer {
        guard let request = try? JSONValue.parse(text), case .object = request else { return .close("invalid JSON") }
        guard let id = request["id"]?.stringValue else { return .close("the id must be a string") }
        let params = request["params"]
        switch request["method"]?.stringValue {
        case "ping":
            return .reply(PushHub.frame(id: id, data: .object([])))
        case "getInfo":
            let chain = world.snapshot().chain
            let tip = chain.tip
            return .reply(
                PushHub.frame(
                    id: id,
                    data: .object([
                        .init("name", .string("Simnet")),
                        .init("shortcut", .string("BTC")),
                        .init("bestHeight", .integer(tip.height)),
                        .init("bestHash", .string(tip.hash)),
                    ])
                )
            )
        case "subscribeNewBlock":
            hub.subscribe(connection, blocks: id)
            return .reply(PushHub.frame(id: id, data: .object([.init("subscribed", .bool(true))])))
        case "unsubscribeNewBlock":
            hub.unsubscribe(connection, blocks: true)
            return .reply(PushHub.frame(id: id, data: .object([.init("subscribed", .bool(false))])))
        case "subscribeAddresses":
            let addresses = params?["addresses"]?.arrayValue?.compactMap(\.stringValue) ?? []
            for address in addresses where (try? SimAddressParser.decode(address, network: world.network)) == nil {
                return .reply(Self.error(id, "Invalid address \"\(address)\", checksum mismatch"))
            }
            if let problem = hub.subscribe(connection, addresses: addresses, requestID: id) {
                return .reply(Self.error(id, problem))
            }
            return .reply(PushHub.frame(id: id, data: .object([.init("subscribed", .bool(true))])))
        case "unsubscribeAddresses":
            hub.unsubscribe(connection, blocks: false)
            return .reply(PushHub.frame(id: id, data: .object([.init("subscribed", .bool(false))])))
        default:
            return .none
        }
    }

    static func error(_ id: String, _ message: String) -> String {
        PushHub.frame(id: id, data: .object([.init("error", .object([.init("message", .string(message))]))]))
    }
}

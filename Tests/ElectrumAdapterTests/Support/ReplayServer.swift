import NIOCore
import NIOPosix
import WatcherJSON

@testable import ElectrumAdapter

/// A loopback Electrum server that answers from a recorded session: each request whose method and params were
/// recorded gets the recorded result under the request's own id; `server.version` and `server.features` get the
/// answers given at creation (the recordings hold no session start); anything else gets `-32601`.
final class ReplayServer: Sendable {
    let channel: any Channel
    var port: Int { channel.localAddress?.port ?? 0 }

    /// Answers keyed by `method` and the compact serialization of `params`.
    static func key(_ method: String, _ params: JSONValue) -> String { method + " " + params.serialized() }

    init(answers: [String: JSONValue]) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(ElectrumLineReader(maxLength: 1 << 20))
                    )
                    try channel.pipeline.syncOperations.addHandler(Responder(answers: answers))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func close() async {
        try? await channel.close()
    }

    private final class Responder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let answers: [String: JSONValue]

        init(answers: [String: JSONValue]) { self.answers = answers }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard let request = try? JSONValue.parse(Array(unwrapInboundIn(data).readableBytesView)),
                let method = request["method"]?.stringValue
            else { return }
            let id = request["id"] ?? .null
            let params = request["params"] ?? .array([])
            let reply: JSONValue =
                if let result = answers[ReplayServer.key(method, params)] {
                    .object([.init("id", id), .init("jsonrpc", .string("2.0")), .init("result", result)])
                } else {
                    .object([
                        .init(
                            "error",
                            .object([.init("code", .number("-32601")), .init("message", .string("method not found"))])
                        ),
                        .init("id", id), .init("jsonrpc", .string("2.0")),
                    ])
                }
            var buffer = context.channel.allocator.buffer(capacity: 256)
            buffer.writeString(reply.serialized() + "\n")
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        }
    }
}

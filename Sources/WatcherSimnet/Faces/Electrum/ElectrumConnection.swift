import NIOCore
import Synchronization
import WatcherJSON

/// One client connection: its channel and its session. Every line goes out through the event loop in the order
/// it was queued under the session's lock, so notifications never overtake each other.
final class ElectrumConnection: Sendable {
    let channel: any Channel
    let session = Mutex(ElectrumSession())

    init(channel: any Channel) {
        self.channel = channel
    }

    /// Queues `lines` (one JSON value each, `\n`-terminated), then closes the connection when `close` is set.
    func send(_ lines: [JSONValue], close: Bool = false) {
        guard !lines.isEmpty || close else { return }
        var buffer = ByteBuffer()
        for line in lines {
            buffer.writeString(line.serialized())
            buffer.writeInteger(UInt8(ascii: "\n"))
        }
        let channel = self.channel
        let bytes = buffer
        channel.eventLoop.execute {
            if bytes.readableBytes > 0 { channel.writeAndFlush(bytes, promise: nil) }
            if close { channel.close(promise: nil) }
        }
    }
}

/// Reads request lines and answers them through the simnet's Electrum face.
final class ElectrumHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let face: SimnetElectrum
    private let world: SimnetWorld
    private let connection: ElectrumConnection

    init(face: SimnetElectrum, world: SimnetWorld, connection: ElectrumConnection) {
        self.face = face
        self.world = world
        self.connection = connection
    }

    func channelActive(context: ChannelHandlerContext) {
        face.add(connection)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        face.remove(connection)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        face.answer(Array(line.readableBytesView), on: connection, world: world)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

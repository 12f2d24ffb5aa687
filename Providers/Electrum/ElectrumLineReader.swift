import NIOCore

/// Splits the server's stream into `\n`-terminated lines. A line longer than `maxLength` is refused, not truncated:
/// the connection fails with ``LineTooLong`` (ElectrumX and Fulcrum cap their sends at 8 MB; reference nodes.md
/// §2.1).
struct ElectrumLineReader: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    /// A line went past the cap.
    struct LineTooLong: Error, CustomStringConvertible {
        let limit: Int
        var description: String { "a line longer than \(limit) bytes" }
    }

    let maxLength: Int

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let line = try Self.nextLine(&buffer, maxLength: maxLength) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    /// The next complete line of `buffer` (its `\n` consumed), `nil` while the line is not complete.
    /// - Throws: ``LineTooLong`` when the line (complete or not) is longer than `maxLength`.
    static func nextLine(_ buffer: inout ByteBuffer, maxLength: Int) throws -> ByteBuffer? {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > maxLength { throw LineTooLong(limit: maxLength) }
            return nil
        }
        let length = newline - buffer.readableBytesView.startIndex
        guard length <= maxLength else { throw LineTooLong(limit: maxLength) }
        let line = buffer.readSlice(length: length) ?? ByteBuffer()
        buffer.moveReaderIndex(forwardBy: 1)
        return line
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

/// Hands each line and the end of the connection to the client.
final class ElectrumClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let client: ElectrumClient

    init(client: ElectrumClient) {
        self.client = client
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        client.received(Array(unwrapInboundIn(data).readableBytesView))
    }

    func channelInactive(context: ChannelHandlerContext) {
        client.closed(reason: "the server closed the connection")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        client.closed(reason: "\(error)")
        context.close(promise: nil)
    }
}

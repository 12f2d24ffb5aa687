import NIOCore

/// Splits the stream into `\n`-terminated lines (the terminator dropped, a trailing `\r` kept for the JSON parser
/// to skip as whitespace). A line longer than `maxLength` without a terminator closes the connection, as servers
/// refuse oversized requests.
struct ElectrumLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    /// A line went past the cap.
    struct LineTooLong: Error {}

    let maxLength: Int

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > maxLength { throw LineTooLong() }
            return .needMoreData
        }
        let length = newline - buffer.readableBytesView.startIndex
        guard length <= maxLength else { throw LineTooLong() }
        let line = buffer.readSlice(length: length) ?? ByteBuffer()
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
